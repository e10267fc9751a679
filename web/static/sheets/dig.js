// DIG: the bones each player dropped in the bowls, and the order of the bowls from the Doghouse out.
import { byId, h, ids } from "../dom.js";
import { count, counts, words } from "../sheet.js";

export const groups = (box) => [{
  id: "dropped", legend: "Bones dropped in bowls",
  rows: box.colours.map((c) => count(`dropped.${c}`, words(c), { max: box.bones_per_colour, swatch: c })),
}];

export const request = (box, tally, groups) => ({
  bowls: tally.bowls,
  players: tally.players.map((p) => ({ name: p.name, ...counts(p, groups) })),
});

export function settings(box, tally, changed) {
  tally.bowls ??= [...box.bowls];
  return h("fieldset", { class: "bowls", "aria-describedby": ids.msg("bowls") },
    h("legend", { text: "Bowls, from the Doghouse out" }),
    tally.bowls.map((colour, i) => {
      const id = ids.setting("bowl", i);
      return h("div", { class: "bowl" },
        h("label", { for: id, text: `Bowl ${i + 1}` }),
        h("select", { id, "aria-describedby": ids.part(id, "points"), onchange: (e) => {
          setBowl(tally, i, e.target.value);
          changed();
        } }, box.colours.map((c) => h("option", { value: c, text: words(c), selected: c === colour }))),
        h("span", { id: ids.part(id, "points"), class: "muted", text: `${box.bowl_points[i]} per bone` }));
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
