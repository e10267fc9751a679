// The page's words, in English or Korean: the phone's language unless the player chose one. The
// words every screen shares are one table per language, lang/{code}.js; each game's own words (its
// items, fields, breakdown, tie-break, refusals) are its own, sheets/{game id}.words.js, in both
// languages, and join the lookup once the game's sheet is loaded (sheet.js).
import * as store from "./store.js";

export const LANGUAGES = { en: "English", ko: "한국어" };
let shared = {}; // lang/{language}.js
const games = new Map(); // game id → its own words, { en, ko }
let words = {}; // what t() and item() read: the shared table and every loaded game's words
export let language = "en";

/** How the phone writes dates and numbers in the language in use: its own region's way where it
 * speaks that language (a British phone, day first), else the language's own. */
export const locale = () => (navigator.languages || [navigator.language])
  .find((tag) => tag.slice(0, 2).toLowerCase() === language) ?? language;

const fromPhone = () => (navigator.languages || [navigator.language])
  .map((tag) => tag.slice(0, 2).toLowerCase()).find((code) => code in LANGUAGES);

/** The lookup in the language in use. A game's words never hide the page's shared ones; no two
 * games give a key different words (tests/web/test_game_words.py). */
function join() {
  const items = {};
  const strings = {};
  for (const own of games.values()) {
    const { items: named = {}, ...rest } = own[language] || {};
    Object.assign(strings, rest);
    for (const [kind, names] of Object.entries(named)) items[kind] = { ...items[kind], ...names };
  }
  words = { ...strings, ...shared, items };
}

/** Loads a language's table: the one chosen on this phone, else the phone's own, else English. */
export async function useLanguage(code = store.cached("lang") || fromPhone()) {
  language = code in LANGUAGES ? code : "en";
  shared = (await import(`./lang/${language}.js`)).default;
  join();
  document.documentElement.lang = language;
}

/** A game's own words ({ en, ko }), found by t() and item() from now on, in either language. */
export function useGameWords(game, own) {
  games.set(game, own);
  join();
}

/** {name}s in `text` replaced by `values`' entries. */
export const format = (text, values = {}) => String(text).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");

/** A string of the page: t("addPlayer"), t("atMost", { game, max }). */
export function t(key, values) {
  const text = words[key] ?? key;
  return typeof text === "function" ? text(values) : format(text, values);
}

/** An item's name (tile, card, mission, colour, dinosaur, set, variant…): the game's words, else
 * the box's, else its id in words. */
export const item = (kind, id, fallback) => words.items?.[kind]?.[id] ?? fallback ?? String(id).replaceAll("_", " ");

/** A number as printed: a true minus sign, not a hyphen. */
export const minus = (n) => (n < 0 ? `−${-n}` : String(n));
