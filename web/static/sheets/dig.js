// DIG: the bones each player dropped in the bowls, and the order of the bowls from the Doghouse out,
// set by tapping the bowls in that order (or by choosing a bowl's colour). The bones are asked for
// bowl by bowl, nearest the Doghouse first, each with what a bone there is worth.
import { h, ids } from "../dom.js";
import { item, t } from "../i18n.js";
import { count, counts, setting } from "../sheet.js";

export const groups = (box, tally) => {
  const spots = placed(tally);
  return [{
    id: "dropped", legend: t("bonesDropped"),
    // what a bone is worth is said only in a bowl the players have set
    rows: (tally.bowls || box.bowls).map((c, i) => count(`dropped.${c}`, item("colour", c), {
      max: box.bones_per_colour, swatch: c,
      ...(spots?.[i] === c ? { hint: t("perBone", { n: box.bowl_points[i] }), tag: t("pt", { n: box.bowl_points[i] }) } : {}),
    })),
  }];
};

export const request = (box, tally, groups) => ({
  bowls: tally.bowls,
  players: tally.players.map((p) => ({ name: p.name, ...counts(p, groups) })),
});

/** What the tie-break compares (rulebook: most 5-point bones, then 4-point…): "1 × 5 pt, 0 × 4 pt…". */
export const tieFigures = (box, parts) => Object.values(parts).sort((a, b) => b.value - a.value)
  .map(({ bones, value }) => t("bonesAt", { bones, pt: t("pt", { n: value }) })).join(", ");

/** A line a bowl, nearest the Doghouse first: "Green 2 × 5 = 10". */
export const breakdown = (box, parts) => Object.entries(parts).sort(([, a], [, b]) => b.value - a.value)
  .map(([colour, { bones, value, points }]) => [item("colour", colour), `${bones} × ${value} = ${points}`]);

// "Blue", as the buttons show it (their word's first letter is made a capital by CSS, which a
// list's options and a shared text do not take)
const named = (c) => item("colour", c).replace(/^./u, (first) => first.toLocaleUpperCase());

/** The bowls' order as a shared result says it, for its totals to be checked: "Bowls from the
 * Doghouse: Green 5, Yellow 4, …". */
export const shared = (box, tally) => t("bowlsShared", { bowls: tally.bowls.map((c, i) => `${named(c)} ${box.bowl_points[i]}`).join(", ") });

// `tally.placed`: each bowl from the Doghouse out, the colour the players set there (tapped in
// order, or chosen bowl by bowl), null where none is set yet. `tally.bowls`: the whole order the
// calculator is sent once every bowl is set; until then the colours not placed fill the bowls
// left in the box's order, which only keeps the counts' rows in place. Both are kept with the
// tally, so that a reload or another tab knows what is still to set.
// A tally kept before `placed` was said the bowls tapped so far (`tapped`); without it, its
// `bowls` may be the box's order it was opened with, or one list chosen (the four others then
// filled unseen): its order is asked for again rather than totalled as the table's.
const placed = (tally) => tally.placed
  ?? tally.bowls?.map((c, i) => (tally.tapped != null && i < tally.tapped.length ? c : null));

/** The bowls as set now (`spots`); the last bowl left is the colour left. */
function place(box, tally, spots) {
  const left = box.colours.filter((c) => !spots.includes(c));
  const whole = left.length === 1 ? spots.map((c) => c ?? left[0]) : spots;
  delete tally.tapped;
  tally.placed = whole;
  const rest = box.bowls.filter((c) => !whole.includes(c));
  tally.bowls = whole.map((c) => c ?? rest.shift());
  setting(tally, ["placed", "bowls", "tapped"]);
}

export function settings(box, tally, changed) {
  const bowls = tally.bowls || box.bowls;
  const spots = placed(tally) || box.bowls.map(() => null);
  const next = spots.indexOf(null);
  const tapsId = ids.setting("tap");
  return h("fieldset", { class: "bowls", "aria-describedby": ids.msg("bowls") },
    h("legend", { text: t("bowls") }),
    h("p", { id: ids.hint(tapsId), class: "muted", text: spots.every((c) => c == null) ? t("tapBowls") : next >= 0 ? t("tapNext", { n: next + 1 }) : t("tapAgain") }),
    h("div", { class: "taps", role: "group", "aria-labelledby": ids.hint(tapsId) }, box.colours.map((colour) => {
      const place = spots.indexOf(colour);
      const swatch = h("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.setProperty("--swatch", colour);
      return h("button", {
        type: "button", id: ids.setting(`tap-${colour}`), class: place >= 0 ? "tap set" : "tap",
        onclick: () => {
          tapBowl(box, tally, spots, colour);
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
      const set = spots[i] === colour;
      return h("div", { class: "bowl" },
        h("label", { for: id, text: t("bowl", { n: i + 1 }) }),
        h("select", { id, "aria-describedby": ids.part(id, "points"), onchange: (e) => {
          setBowl(box, tally, spots, i, e.target.value);
          changed(true);
        } }, set ? null : h("option", { value: "", text: t("bowlNotSet"), disabled: true, selected: true }),
        box.colours.map((c) => h("option", { value: c, text: named(c), selected: set && c === colour }))),
        h("span", { id: ids.part(id, "points"), class: "muted", text: t("perBone", { n: box.bowl_points[i] }) }));
    }),
    h("p", { id: ids.msg("bowls"), class: "msg" }));
}

/** While the bowls' order is not entered, or entered in part, why no total stands: the order
 * is not yet the table's. */
export function waiting(tally) {
  const spots = placed(tally);
  return !spots || spots.every((c) => c == null) ? t("setBowls") : spots.includes(null) && t("waitBowls");
}

/** The next bowl out from the Doghouse (the first not set) is `colour`, taken from a bowl further
 * out that a list gave it. Tapping a bowl of the order tapped so far (or of a whole order) takes
 * it and the bowls after it back, to be tapped again (not those a list set further out): the
 * first bowl of a whole order, the whole order. The last
 * bowl of a whole order (the one left, which a player reading "tap the bowls in order" may tap
 * too) is the one left again, and changes nothing: a tap never starts a new order over one
 * entered, to be tapped in wrong. */
function tapBowl(box, tally, spots, colour) {
  const at = spots.indexOf(colour);
  const next = spots.indexOf(null);
  const end = next < 0 ? spots.length : next; // the order tapped so far, or the whole order
  if (at >= 0 && at < end) return place(box, tally, spots.map((c, i) => (i >= at && i < end ? null : c)));
  return place(box, tally, spots.map((c, i) => (i === next ? colour : c === colour ? null : c)));
}

/** Each colour goes in one bowl: choosing a colour another bowl has swaps the two (a bowl not set
 * yet gives the other bowl none). */
function setBowl(box, tally, spots, index, colour) {
  const other = spots.indexOf(colour);
  place(box, tally, spots.map((c, i) => (i === index ? colour : i === other ? spots[index] : c)));
}
