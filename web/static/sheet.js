// What the games' scoresheets share; what each game's sheet exports: README "Adding a game", 6.

import { t, useGameWords } from "./i18n.js";

/** A game's scoresheet, words and scorer, loaded by the game's id: a new game is its files in
 * sheets/ and scoring/. */
export async function sheetFor(box) {
  try {
    const [sheet, , scorer] = await Promise.all([import(`./sheets/${box.id}.js`), wordsFor(box),
      import(`./scoring/${box.id}.js`)]);
    return { ...sheet, score: scorer.score };
  } catch {
    throw new Error(t("unknownGame", { game: box.id }));
  }
}

/** A game's own words alone (its items, variants, colours…), for a page that shows the game
 * before, or without, its scoresheet: the play page's table needs the sheet only at the end. */
export async function wordsFor(box) {
  useGameWords(box.id, (await import(`./sheets/${box.id}.words.js`)).default);
}

/** A setting of the tally (DIG's bowls, Dig It Up's variant) changed now: its `fields`, each with
 * when, so that another tab's save made before it heard of the change does not take it back
 * (tally.js merge keeps each field's later change, as it does each count's). */
export function setting(tally, fields) {
  const now = Date.now();
  tally.setAt = { ...tally.setAt, ...Object.fromEntries(fields.map((field) => [field, now])) };
}

/** A count as the calculator takes it: an empty field is 0, digits (a minus before them, for the
 * field's limits to refuse) their number; any other text ("3.", "+3", "0x3", "1e1"), which a
 * number field shows empty, is no count (NaN), refused as the field says, never counted. */
export const number = (raw) => (raw === "" || raw == null ? 0 : typeof raw !== "string" ? Number(raw)
  : /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : NaN);

/** The variants with what each changes: `variant_rules` beside the ids, or the ids alone. */
export function variants(box) {
  const rules = box.variant_rules || [];
  return (box.variants || [])
    .map((v) => (typeof v === "string" ? { id: v } : v))
    .filter((v) => /^[a-z][a-z0-9_-]*$/.test(v.id)) // an id the calculator could take
    .map((v) => ({ ...v, ...rules.find((r) => r.id === v.id) }));
}

/** A count field: `key` is where it goes in the player's request (and the API's error keys),
 * `word` names it ("gold"). */
export const count = (key, word, extra = {}) => ({ key, word, path: key, min: 0, ...extra });

export function put(target, key, value) {
  const parts = key.split(".");
  const last = parts.pop();
  let at = target;
  for (const part of parts) at = at[part] ??= {};
  at[last] = value;
}

/** A player's counts, placed where each field's key says. */
export function counts(player, groups) {
  const out = {};
  for (const group of groups) {
    for (const row of group.rows) {
      if (!row.kind) put(out, row.key, number(player.values[row.key]));
    }
  }
  return out;
}

/** A `listed` group goes to the calculator as a list of its rows' numbers, each as often as the
 * player's count of it ([1, 1, 3]); an error about entry j of the list is about the row it numbers. */
export const rowNumbers = (player, group) =>
  group.rows.flatMap((row, i) => Array(Math.max(0, number(player.values[row.key]) | 0)).fill(i + 1));
