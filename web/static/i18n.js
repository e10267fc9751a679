// The page's words, in English or Korean (README "The phone page").
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

const packs = new Map(); // name → loads a page's own words in one language (a module's default)

/** Loads a language's table: the one chosen on this phone, else the phone's own, else English;
 * and each page's own words in it (usePack), alongside. */
export async function useLanguage(code = store.cached("lang") || fromPhone()) {
  language = code in LANGUAGES ? code : "en";
  const chosen = language;
  const [table] = await Promise.all([import(`./lang/${chosen}.js`),
    ...[...packs].map(async ([name, load]) => {
      const own = games.get(name);
      own[chosen] ??= (await load(chosen)).default;
    })]);
  shared = table.default;
  join();
  document.documentElement.lang = language;
}

/** A page's own words, kept one file a language (`load(code)` imports one): found by t() and
 * item() from the next useLanguage on, in whichever language it loads. */
export function usePack(name, load) {
  packs.set(name, load);
  games.set(name, games.get(name) || {});
}

/** A game's own words ({ en, ko }), found by t() and item() from now on, in either language. */
export function useGameWords(game, own) {
  games.set(game, own);
  join();
}

/** {name}s in `text` replaced by `values`' entries; a Korean particle written for either kind
 * of word before it, "을(를)", the one the word takes (particle). */
export const format = (text, values = {}) => String(text)
  .replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "")
  .replace(/(.)(을\(를\)|이\(가\)|은\(는\)|과\(와\)|와\(과\)|\(으\)로)/gu, (_, last, both) => last + particle(last, both));

// Each particle that follows a word's final consonant, and the one that follows a vowel. "(으)로"
// follows ㄹ as it follows a vowel: 서울로, 집으로.
const PARTICLES = { "을(를)": ["을", "를"], "이(가)": ["이", "가"], "은(는)": ["은", "는"],
  "과(와)": ["과", "와"], "와(과)": ["과", "와"], "(으)로": ["으로", "로"] };
// A figure's last sound as Korean says it (영, 일, 이, 삼, 사, 오, 육, 칠, 팔, 구): its final
// consonant's number in a Hangul syllable (0: none, 8: ㄹ). A last 0 is 영 alone, else its
// place (십, 백, 천, 만): a final consonant, never ㄹ, either way.
const DIGIT_FINALS = [21, 8, 0, 16, 0, 0, 1, 8, 8, 0];

/** The particle of `both` ("을(를)") that follows `last`, the word's last letter: a Hangul
 * syllable's final consonant decides, or a figure's as said; after anything else (a name in
 * Latin letters) both stay written. */
function particle(last, both) {
  const [afterConsonant, afterVowel] = PARTICLES[both];
  const code = last.codePointAt(0);
  let final;
  if (code >= 0xac00 && code <= 0xd7a3) final = (code - 0xac00) % 28;
  else if (last >= "0" && last <= "9") final = DIGIT_FINALS[last];
  else return both;
  if (final === 0 || (final === 8 && both === "(으)로")) return afterVowel;
  return afterConsonant;
}

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
