// The phone page's scorers (web/static/scoring/) against the Python calculators' answers on the
// shared vectors (vectors.py). Run by test_vectors.py, which passes the box data the server sends:
//   DIGSITE_BOXES=boxes.json node --test tests/web/scoring.test.mjs
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const vectors = JSON.parse(readFileSync(new URL("./vectors.json", import.meta.url), "utf8"));
const boxes = JSON.parse(readFileSync(process.env.DIGSITE_BOXES, "utf8"));

for (const [game, cases] of Object.entries(vectors)) {
  test(`${game}: the page's scorer answers as the calculator on ${cases.length} scoresheets`, async () => {
    const { score } = await import(`../../web/static/scoring/${game}.js`);
    cases.forEach(({ sheet, result, errors }, i) => {
      const copy = structuredClone(sheet);
      let refused = null;
      let answer = null;
      try {
        answer = score(boxes[game], copy);
      } catch (error) {
        if (!error.errors) throw error;
        refused = Object.keys(error.errors).sort();
      }
      const said = `case ${i}: ${JSON.stringify(sheet)}`;
      if (errors) assert.deepEqual(refused, errors, said);
      else assert.deepEqual(answer, result, said);
      assert.deepEqual(copy, sheet, `${said} is left as it was`);
    });
  });
}
