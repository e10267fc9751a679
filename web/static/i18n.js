// The page's words, in English or Korean: the phone's language unless the player chose one. Every
// string of the page and every item's name comes from one table per language, lang/{code}.js.
import * as store from "./store.js";

export const LANGUAGES = { en: "English", ko: "한국어" };
let words = {};
export let language = "en";

const fromPhone = () => (navigator.languages || [navigator.language])
  .map((tag) => tag.slice(0, 2).toLowerCase()).find((code) => code in LANGUAGES);

/** Loads a language's table: the one chosen on this phone, else the phone's own, else English. */
export async function useLanguage(code = store.cached("lang") || fromPhone()) {
  language = code in LANGUAGES ? code : "en";
  words = (await import(`./lang/${language}.js`)).default;
  document.documentElement.lang = language;
}

/** {name}s in `text` replaced by `values`' entries. */
export const format = (text, values = {}) => String(text).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");

/** A string of the page: t("addPlayer"), t("atMost", { game, max }). */
export function t(key, values) {
  const text = words[key] ?? key;
  return typeof text === "function" ? text(values) : format(text, values);
}

/** An item's name (tile, card, mission, colour, dinosaur, set, variant…): the table's, else the
 * box's, else its id in words. */
export const item = (kind, id, fallback) => words.items?.[kind]?.[id] ?? fallback ?? String(id).replaceAll("_", " ");

/** A number as printed: a true minus sign, not a hyphen. */
export const minus = (n) => (n < 0 ? `−${-n}` : String(n));
