// Lighthouse on the phone page, as a phone sees it: the home screen, then a Dig It Up tally in
// progress (Joseph's), each loaded afresh. Not part of `make test` (Lighthouse is a large download
// and a slow run); with the page served (`make run`):
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
    low ||= category.score !== null && category.score < LEAST;
  }
}
await browser.close();
process.exit(low ? 1 : 0);
