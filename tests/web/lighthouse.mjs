// Lighthouse on the phone pages, as a phone sees them: the home screen, then a Dig It Up tally in
// progress (Joseph's), each loaded afresh; then the play page's setup, a seat's table and a
// finished match's replay. Not part of `make test` (Lighthouse is a large download and a slow
// run); with the page served (`make run`):
//   npm install --no-save lighthouse@12
//   CHROME_PATH=/usr/bin/chromium node tests/web/lighthouse.mjs http://127.0.0.1:8000/
// It prints each category's score and the audits below full marks, and fails below 0.95.
import { startFlow } from "lighthouse";
import puppeteer from "puppeteer-core";

const url = process.argv[2] || "http://127.0.0.1:8000/";
const LEAST = 0.95;
const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu"],
});
const page = await browser.newPage();
const flow = await startFlow(page, { name: "Digsite scorer" });
await flow.navigate(url, { name: "home" });
await page.locator(".game").click(); // Dig It Up
await page.locator("#new-name").fill("Joseph");
await page.keyboard.press("Enter");
await page.waitForSelector("h2 ::-p-text(Joseph)");
await flow.navigate(url, { name: "a tally in progress", disableStorageReset: true });
await flow.snapshot({ name: "the tally, as drawn" });
// The play page: its setup, then a seat's table of a DIG match against a bot, opened as the
// seat's phone opens it (the seat's token kept by the page).
await flow.navigate(`${url}play`, { name: "play: setup" });
const created = await (await fetch(`${url}api/v1/games/dig/matches`, {
  method: "POST", headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ players: ["Ann", { name: "Rex", bot: "greedy" }] }),
})).json();
await page.evaluateOnNewDocument((kept) => localStorage.setItem("digsite.play.seats", kept),
  JSON.stringify({ [created.id]: { seat: 0, token: created.seats[0].token, name: "Ann", game: "dig" } }));
await flow.navigate(`${url}play/${created.id}`, { name: "play: a seat's table", disableStorageReset: true });
await flow.snapshot({ name: "play: the table, as drawn" });
// A finished match of each game, its replay opened from its shared link by someone who did
// not play it.
const BOTS = { "dig-it-up": 4, dig: 2, "digging-for-dinos": 2 };
for (const [game, seats] of Object.entries(BOTS)) {
  const finished = await (await fetch(`${url}api/v1/games/${game}/matches`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ players: ["Rex", "Max", "Ivy", "Kit"].slice(0, seats).map((name, i) => ({ name, bot: i ? "random" : "greedy" })) }),
  })).json();
  await flow.navigate(`${url}play/${finished.id}/replay`, { name: `play: a replay of ${game}` });
  await flow.snapshot({ name: `play: the replay of ${game}, as drawn` });
}
let low = false;
for (const step of (await flow.createFlowResult()).steps) {
  // A snapshot weighs no performance audit: that category has no score there, only audits.
  const scored = Object.values(step.lhr.categories).filter((c) => c.auditRefs.some((r) => r.weight > 0));
  console.log(step.name, Object.fromEntries(scored.map((c) => [c.id, c.score])));
  for (const category of scored) {
    for (const ref of category.auditRefs.filter((r) => r.weight > 0)) {
      const audit = step.lhr.audits[ref.id];
      if (audit.score !== null && audit.score < 1) console.log(`  ${category.id} ${ref.id} ${audit.score} ${audit.displayValue || ""}`);
    }
    // What blocked the main thread, where blocking time cost the score: each long task's
    // script (or "Unattributable": style, layout, paint), its length and start, as simulated.
    if (category.id === "performance" && step.lhr.audits["total-blocking-time"]?.score < 1) {
      for (const task of step.lhr.audits["long-tasks"]?.details?.items || []) {
        console.log(`    long task ${Math.round(task.duration)} ms at ${Math.round(task.startTime)} ms: ${task.url}`);
      }
    }
    low ||= category.score !== null && category.score < LEAST;
  }
}
await browser.close();
process.exit(low ? 1 : 0);
