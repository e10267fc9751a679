// DIG: the bones each player dropped in the bowls, and the order of the bowls from the Doghouse out,
// set by tapping the bowls in that order (or by choosing a bowl's colour). The bones are asked for
// bowl by bowl, nearest the Doghouse first, each with what a bone there is worth.
import { byId, h, ids } from "../dom.js";
import { item, t } from "../i18n.js";
import { count, counts } from "../sheet.js";

export const groups = (box, tally) => [{
  id: "dropped", legend: t("bonesDropped"),
  rows: (tally.bowls || box.bowls).map((c, i) => count(`dropped.${c}`, item("colour", c), {
    max: box.bones_per_colour, swatch: c, hint: t("perBone", { n: box.bowl_points[i] }), tag: t("pt", { n: box.bowl_points[i] }),
  })),
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

// `tally.bowls`: the order of the bowls at the table's end (rulebook: a bone scores by its bowl's
// place from the Doghouse), set only once the players enter it: the box's own order is where the
// selects start, no order of the table's. `tally.tapped`: the bowls tapped so far, nearest the
// Doghouse first, kept with the tally so that a reload or another tab knows the order is still
// being tapped in.

export function settings(box, tally, changed) {
  const bowls = tally.bowls || box.bowls;
  const taps = tally.tapped || [];
  // "Blue", as the buttons above show it (their word's first letter is made a capital by CSS,
  // which a list's options do not take)
  const named = (c) => item("colour", c).replace(/^./u, (first) => first.toLocaleUpperCase());
  const tapsId = ids.setting("tap");
  return h("fieldset", { class: "bowls", "aria-describedby": ids.msg("bowls") },
    h("legend", { text: t("bowls") }),
    h("p", { id: ids.hint(tapsId), class: "muted", text: !taps.length ? t("tapBowls") : taps.length < bowls.length ? t("tapNext", { n: taps.length + 1 }) : t("tapAgain") }),
    h("div", { class: "taps", role: "group", "aria-labelledby": ids.hint(tapsId) }, box.colours.map((colour) => {
      const place = taps.indexOf(colour);
      const swatch = h("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.setProperty("--swatch", colour);
      return h("button", {
        type: "button", id: ids.setting(`tap-${colour}`), class: place >= 0 ? "tap set" : "tap",
        onclick: () => {
          tapBowl(tally, bowls, colour);
          changed(true);
        },
      }, swatch, h("span", { class: "vh", text: place >= 0 ? t("bowlTapped", { colour: item("colour", colour), n: place + 1, place: t("ordinal", { n: place + 1 }) }) : item("colour", colour) }),
      h("span", { class: "w", "aria-hidden": "true", text: item("colour", colour) }),
      h("b", { "aria-hidden": "true", text: place >= 0 ? String(place + 1) : "" }));
    })),
    bowls.map((colour, i) => {
      const id = ids.setting("bowl", i);
      // A bowl the players have not set (not chosen, nor tapped yet) shows no colour: the box's
      // order would look entered, and choosing the colour shown would change nothing.
      const set = Boolean(tally.bowls) && (tally.tapped == null || i < tally.tapped.length);
      return h("div", { class: "bowl" },
        h("label", { for: id, text: t("bowl", { n: i + 1 }) }),
        h("select", { id, "aria-describedby": ids.part(id, "points"), onchange: (e) => {
          setBowl(tally, bowls, i, e.target.value);
          changed(true);
        } }, set ? null : h("option", { value: "", text: t("bowlNotSet"), disabled: true, selected: true }),
        box.colours.map((c) => h("option", { value: c, text: named(c), selected: set && c === colour }))),
        h("span", { id: ids.part(id, "points"), class: "muted", text: t("perBone", { n: box.bowl_points[i] }) }));
    }),
    h("p", { id: ids.msg("bowls"), class: "msg" }));
}

/** While the bowls' order is not entered, or half tapped, why no total stands: the order is not
 * yet the table's. */
export const waiting = (tally) => (!tally.bowls ? t("setBowls")
  : (tally.tapped?.length ?? 0) % tally.bowls.length > 0 && t("waitBowls"));

/** The next bowl out from the Doghouse is `colour`; once all but one are tapped, the last is
 * the one left. Tapping a bowl already tapped takes it and the bowls after it back, to be
 * tapped again: the first bowl, the whole order. The last bowl of a whole order (the one left,
 * which a player reading "tap the bowls in order" may tap too) is the one left again, and
 * changes nothing: a tap never starts a new order over one entered, to be tapped in wrong. */
function tapBowl(tally, bowls, colour) {
  let taps = tally.tapped || [];
  const place = taps.indexOf(colour);
  taps = place >= 0 ? taps.slice(0, place) : [...taps, colour];
  tally.bowls = [...taps, ...bowls.filter((c) => !taps.includes(c))];
  tally.tapped = taps.length >= tally.bowls.length - 1 ? [...tally.bowls] : taps;
}

/** Each colour goes in one bowl: choosing a colour swaps it with the bowl that had it. */
function setBowl(tally, bowls, index, colour) {
  delete tally.tapped;
  tally.bowls = [...bowls];
  const other = tally.bowls.indexOf(colour);
  if (other >= 0 && other !== index) tally.bowls[other] = tally.bowls[index];
  tally.bowls[index] = colour;
  tally.bowls.forEach((c, i) => { byId(ids.setting("bowl", i)).value = c; });
}
