// DIG: the bones each player dropped in the bowls, and the order of the bowls from the Doghouse out.
import { byId, h, ids } from "../dom.js";
import { item, t } from "../i18n.js";
import { count, counts } from "../sheet.js";

export const groups = (box) => [{
  id: "dropped", legend: t("bonesDropped"),
  rows: box.colours.map((c) => count(`dropped.${c}`, item("colour", c), { max: box.bones_per_colour, swatch: c })),
}];

export const request = (box, tally, groups) => ({
  bowls: tally.bowls,
  players: tally.players.map((p) => ({ name: p.name, ...counts(p, groups) })),
});

/** What the tie-break compares (rulebook: most 5-point bones, then 4-point…): "1 × 5 pt, 0 × 4 pt…". */
export const tieFigures = (box, parts) => Object.values(parts).sort((a, b) => b.value - a.value)
  .map(({ bones, value }) => `${bones} × ${t("pt", { n: value })}`).join(", ");

/** A line a bowl, nearest the Doghouse first: "Green 2 × 5 = 10". */
export const breakdown = (box, parts) => Object.entries(parts).sort(([, a], [, b]) => b.value - a.value)
  .map(([colour, { bones, value, points }]) => [item("colour", colour), `${bones} × ${value} = ${points}`]);

export function settings(box, tally, changed) {
  tally.bowls ??= [...box.bowls];
  return h("fieldset", { class: "bowls", "aria-describedby": ids.msg("bowls") },
    h("legend", { text: t("bowls") }),
    tally.bowls.map((colour, i) => {
      const id = ids.setting("bowl", i);
      return h("div", { class: "bowl" },
        h("label", { for: id, text: t("bowl", { n: i + 1 }) }),
        h("select", { id, "aria-describedby": ids.part(id, "points"), onchange: (e) => {
          setBowl(tally, i, e.target.value);
          changed();
        } }, box.colours.map((c) => h("option", { value: c, text: item("colour", c), selected: c === colour }))),
        h("span", { id: ids.part(id, "points"), class: "muted", text: t("perBone", { n: box.bowl_points[i] }) }));
    }),
    h("p", { id: ids.msg("bowls"), class: "msg" }));
}

/** Each colour goes in one bowl: choosing a colour swaps it with the bowl that had it. */
function setBowl(tally, index, colour) {
  const other = tally.bowls.indexOf(colour);
  if (other >= 0 && other !== index) tally.bowls[other] = tally.bowls[index];
  tally.bowls[index] = colour;
  tally.bowls.forEach((c, i) => { byId(ids.setting("bowl", i)).value = c; });
}
