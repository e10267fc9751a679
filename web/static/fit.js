// Fitting the tally's words to their boxes (players' names, a pad's keys): loaded with the tally
// and the pages that show one, not with the first page, which draws no name to fit.
import { h } from "./dom.js";

/** Each box of `boxes` shows its player's name whole where it fits, else the name's start and end
 * around "…", as much of both as fits: names alike at their start ("Alexandra Konstantinopoulou-Smith
 * Ann", "… Bob") stay told apart where a cut at the end made them one. A screen reader still hears
 * the name whole. Drawn again as the page changes width (fitNames() with no boxes: every one). */
export function fitNames(boxes = document.querySelectorAll("[data-name]")) {
  for (const box of boxes) {
    const name = box.dataset.name ?? box.textContent;
    box.dataset.name = name;
    box.textContent = name;
    if (!overflows(box)) continue;
    const chars = [...name];
    const kept = (n) => `${chars.slice(0, Math.ceil(n / 2)).join("")}…${chars.slice(chars.length - Math.floor(n / 2)).join("")}`;
    let [least, most] = [2, chars.length - 1]; // the characters kept
    while (least < most) {
      const n = Math.ceil((least + most) / 2);
      box.textContent = kept(n);
      if (overflows(box)) most = n - 1;
      else least = n;
    }
    box.replaceChildren(h("span", { class: "vh", text: name }), h("span", { "aria-hidden": "true", text: kept(least) }));
  }
}
/** Whether `el`'s content is wider or taller than its box. */
export const overflows = (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
// Letters made smaller first, a name shortened only if it does not fit even so (no window in Node's tests).
globalThis.addEventListener?.("resize", () => { fitWords(); fitNames(); });

/** Each of `boxes` (a name) keeps its words whole: its letters made smaller (to 70%) rather than a
 * word broken ("Apprais/al"). Again as the page changes width (fitWords(): every one). With
 * `orAsItWas`, a box whose words break even so keeps its own size (a player's name, shortened
 * then by fitNames, not made small too); a name fitNames shortened is measured whole again. */
export function fitWords(boxes = document.querySelectorAll("[data-fit]"), orAsItWas = false) {
  const all = [...boxes];
  for (const box of all) {
    if (!("fit" in box.dataset)) box.dataset.fit = orAsItWas ? "or-as-it-was" : "";
    if (box.style.fontSize) box.style.fontSize = "";
    if (box.dataset.name != null && box.textContent !== box.dataset.name) box.textContent = box.dataset.name;
  }
  shrink(all, brokenWord, 0.7);
  for (const box of all) if (box.dataset.fit === "or-as-it-was" && brokenWord(box)) box.style.fontSize = "";
}

/** Smaller letters for each of `boxes` while it is `wrong`, down to `least` of their size. */
export function shrink(boxes, wrong, least) {
  let bad = [...boxes].filter(wrong);
  const sizes = new Map(bad.map((box) => [box, parseFloat(getComputedStyle(box).fontSize)]));
  for (let scale = 0.92; bad.length && scale >= least; scale = scale > least ? Math.max(least, scale * 0.92) : 0) {
    for (const box of bad) box.style.fontSize = `${sizes.get(box) * scale}px`;
    bad = bad.filter(wrong);
  }
}

/** Whether a word of `el`'s text is drawn across two lines. */
function brokenWord(el) {
  const range = document.createRange();
  for (const node of el.childNodes) {
    if (node.nodeType !== Node.TEXT_NODE) continue;
    for (const word of node.data.matchAll(/\S+/g)) {
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) return true;
    }
  }
  return false;
}
