// The page speaks English and Korean alike: every string of one language's shared table is in the
// other's (web/static/lang/), and Korean names every item the page shows, from each game's own
// words (web/static/sheets/{game id}.words.js; tests/web/test_game_words.py checks their keys).
// Run by test_vectors.py with the box data:
//   DIGSITE_BOXES=boxes.json node --test tests/web/lang.test.mjs
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const { default: en } = await import("../../web/static/lang/en.js");
const { default: ko } = await import("../../web/static/lang/ko.js");
const boxes = JSON.parse(readFileSync(process.env.DIGSITE_BOXES, "utf8"));
const own = Object.fromEntries(await Promise.all(Object.keys(boxes).map(async (game) =>
  [game, (await import(`../../web/static/sheets/${game}.words.js`)).default])));

test("both tables hold the same strings", () => {
  assert.deepEqual(Object.keys(ko).sort(), Object.keys(en).sort());
});

test("Korean names every item the page shows and says every mission's condition", () => {
  const box = boxes["dig-it-up"];
  const shown = {
    "dig-it-up": {
      tile: box.tiles.map((t) => t.id), set: box.sets.map((s) => s.id), mission: box.missions.map((m) => m.id),
      condition: box.missions.map((m) => m.id), variant: box.variant_rules.map((v) => v.id),
      card: box.cards.filter((c) => c.colour === "orange" && (c.counts_as || c.end_money || c.cancels_stone_set)).map((c) => c.id),
    },
    dig: { colour: boxes.dig.colours },
    "digging-for-dinos": { dinosaur: boxes["digging-for-dinos"].roster.map((d) => d.id) },
  };
  for (const [game, kinds] of Object.entries(shown)) {
    const items = own[game].ko.items;
    for (const [kind, wanted] of Object.entries(kinds)) {
      assert.deepEqual(wanted.filter((id) => items[kind]?.[id] == null), [], `${game} ${kind}`);
    }
  }
  for (const card of shown["dig-it-up"].card) assert.ok(own["dig-it-up"].ko.items.effect[card], card);
});

test("a total is said with its unit, a single point as one", async () => {
  // The standings, the play page's end and its replay read "Bob 1 points".
  globalThis.document ??= { documentElement: {} };
  const i18n = await import("../../web/static/i18n.js");
  const { amount } = await import("../../web/static/results.js");
  await i18n.useLanguage("en");
  assert.deepEqual([1, -1, 0, 5, -3].map((n) => amount(n)), ["1 point", "−1 point", "0 points", "5 points", "−3 points"]);
  assert.equal(amount(1, "₩"), "1 ₩");
  assert.equal(i18n.t("points"), "points"); // a label with no number: what totals count
  await i18n.useLanguage("ko");
  assert.deepEqual([1, 5, -3].map((n) => amount(n)), ["1점", "5점", "−3점"]); // as "29점으로 동점"
});

test("a Korean particle is the one the word before it takes, a figure's as Korean says it", async () => {
  // The Moves read "Ann 님이 주사위 3을(를) 굴렸습니다" where a Korean reader says "3을".
  globalThis.document ??= { documentElement: {} };
  const { format } = await import("../../web/static/i18n.js");
  const said = (text, word) => format(text, { word });
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20].map((n) => said("{word}을(를)", n)),
    ["1을", "2를", "3을", "4를", "5를", "6을", "7을", "8을", "9를", "10을", "20을"]);
  assert.equal(said("{word}이(가) 닫혔습니다", "보석"), "보석이 닫혔습니다");
  assert.equal(said("{word}이(가) 닫혔습니다", "루비"), "루비가 닫혔습니다");
  assert.equal(said("{word}은(는)", "칼"), "칼은");
  assert.equal(said("{word}와(과)", "칼"), "칼과");
  assert.equal(said("{word}(으)로", "서울"), "서울로"); // ㄹ takes 로, as a vowel does
  assert.equal(said("{word}(으)로", "집"), "집으로");
  assert.equal(said("{word}(으)로", 7), "7로");
  assert.equal(said("{word}을(를)", "Ann"), "Ann을(를)"); // a Latin name: both stay written
});

test("a DIG move says what was dug and dropped, in words a reader follows", async () => {
  // "Ann dropped 2 in the green bowl", "Ann 님이 1에서 팠습니다": 2 what, and 1 what?
  const { default: en } = await import("../../web/static/play-words/en.js");
  const { default: ko } = await import("../../web/static/play-words/ko.js");
  const { format } = await import("../../web/static/i18n.js");
  const said = (words, key, values) => (typeof words[key] === "function" ? words[key](values) : format(words[key], values));
  assert.equal(said(en, "play.dig.dropped", { who: "Ann", n: 1, colour: "green" }), "Ann dropped 1 bone in the green bowl");
  assert.equal(said(en, "play.dig.dropped", { who: "Ann", n: 2, colour: "green" }), "Ann dropped 2 bones in the green bowl");
  assert.equal(said(en, "play.dig.dug", { who: "Ann", n: 3, scent: "blue" }), "Ann dug at card 3: blue");
  assert.equal(said(ko, "play.dig.dropped", { who: "Ann 님", n: 2, colour: "초록" }), "Ann 님이 초록 그릇에 뼈 2개를 떨어뜨렸습니다");
  assert.equal(said(ko, "play.dig.dug", { who: "Ann 님", n: 8, scent: "파랑" }), "Ann 님이 8번 카드에서 팠습니다: 파랑");
});

test("a person at the table is named with 님, a bot by its name alone, each with its particle", async () => {
  // "욕심쟁이 봇 님이 1에서 팠습니다": a bot was spoken of as a person
  const { default: ko } = await import("../../web/static/play-words/ko.js");
  const { format } = await import("../../web/static/i18n.js");
  const person = (name, bot) => ko["play.person"]({ name, bot });
  assert.equal(format(ko["play.dig.kept"], { who: person("지민") }), "지민 님이 뼈를 가졌습니다");
  assert.equal(format(ko["play.dig.kept"], { who: person("욕심쟁이 봇", "greedy") }), "욕심쟁이 봇이 뼈를 가졌습니다");
  assert.equal(format(ko["play.dig.kept"], { who: person("무작위", "random") }), "무작위가 뼈를 가졌습니다");
});

test("the follow page's own words are in both languages", async () => {
  const { default: own } = await import("../../web/static/follow.words.js");
  assert.deepEqual(Object.keys(own.ko).sort(), Object.keys(own.en).sort());
});
