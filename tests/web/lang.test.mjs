// The page speaks English and Korean alike: every string and every item name of one language's
// table is in the other's (web/static/lang/). Run by test_vectors.py with the box data:
//   DIGSITE_BOXES=boxes.json node --test tests/web/lang.test.mjs
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const { default: en } = await import("../../web/static/lang/en.js");
const { default: ko } = await import("../../web/static/lang/ko.js");
const boxes = JSON.parse(readFileSync(process.env.DIGSITE_BOXES, "utf8"));

const strings = (table) => Object.keys(table).filter((key) => key !== "items").sort();

test("both tables hold the same strings", () => {
  assert.deepEqual(strings(ko), strings(en));
});

test("both tables name the same items", () => {
  for (const [kind, names] of Object.entries(en.items)) {
    assert.deepEqual(Object.keys(ko.items[kind]).sort(), Object.keys(names).sort(), kind);
  }
});

test("the Korean table names every item the page shows and says every mission's condition", () => {
  const box = boxes["dig-it-up"];
  const shown = {
    tile: box.tiles.map((t) => t.id), set: box.sets.map((s) => s.id), mission: box.missions.map((m) => m.id),
    condition: box.missions.map((m) => m.id), variant: box.variant_rules.map((v) => v.id),
    colour: boxes.dig.colours, dinosaur: boxes["digging-for-dinos"].roster.map((d) => d.id),
    card: box.cards.filter((c) => c.colour === "orange" && (c.counts_as || c.end_money || c.cancels_stone_set)).map((c) => c.id),
  };
  for (const [kind, wanted] of Object.entries(shown)) {
    assert.deepEqual(wanted.filter((id) => !(id in ko.items[kind])), [], kind);
  }
  for (const card of shown.card) assert.ok(card in ko.items.effect, card);
});
