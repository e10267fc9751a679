// The calculator's answer on the page: each player's total, place and breakdown, the standings
// with the tie-break, and the totals in the bottom bar.
import { byId, h, ids } from "./dom.js";
import { words } from "./sheet.js";

export const minus = (n) => (n < 0 ? `−${-n}` : String(n));
const ordinal = (n) => {
  const tens = n % 100;
  const suffix = tens > 10 && tens < 14 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
};

export function showResult(tally, result) {
  const shared = result.winners.length > 1;
  const won = (name) => result.winners.includes(name);
  for (const player of tally.players) {
    const scored = result.players.find((r) => r.name === player.name);
    if (!byId(ids.total(player))) continue;
    byId(ids.total(player)).textContent = scored ? minus(scored.total) : "–";
    byId(ids.rank(player)).textContent = !scored ? ""
      : `${ordinal(scored.rank)}${won(scored.name) ? (shared ? " · shared win" : " · winner") : ""}`;
    byId(ids.breakdown(player)).replaceChildren(...(scored ? breakdown(scored.breakdown) : []));
    const chip = byId(ids.chip(player));
    if (chip) chip.textContent = scored ? minus(scored.total) : "";
  }
  const ranked = [...result.players].sort((a, b) => a.rank - b.rank);
  byId(ids.ranking)?.replaceChildren(...ranked.map((r) => h("li", { class: won(r.name) ? "won" : null },
    h("span", { class: "pos", text: ordinal(r.rank) }),
    h("span", { class: "who", text: r.name }),
    h("span", { class: "pts", text: `${minus(r.total)} ${tally.unit}` }),
    won(r.name) ? h("span", { class: "badge", text: shared ? "Shared win" : "Winner" }) : null)));
  const tie = byId(ids.tie);
  if (!tie) return;
  tie.hidden = !result.tie_break;
  tie.textContent = result.tie_break
    ? `Tie-break: ${[result.tie_break.rule, result.tie_break.explanation].filter(Boolean).join(" ")}` : "";
}

/** The calculator's breakdown in words: amounts as they are, groups of amounts without the
 * zeros, and lists of things as a line each. */
function breakdown(parts) {
  const out = [];
  const add = (term, value) => out.push(h("div", {},
    h("dt", { text: term[0].toUpperCase() + term.slice(1) }), h("dd", { text: value })));
  for (const [key, value] of Object.entries(parts)) {
    if (typeof value === "number") add(words(key), minus(value));
    else if (Array.isArray(value)) {
      add(words(key), value.length
        ? value.map((item) => Object.values(item).map((v) => (typeof v === "number" ? minus(v) : words(v))).join(" ")).join(", ")
        : "none");
    } else if (value && typeof value === "object") {
      const entries = Object.entries(value);
      if (entries.every(([, v]) => typeof v === "number")) {
        const nonzero = entries.filter(([, v]) => v !== 0);
        if (!nonzero.length) add(words(key), "0");
        for (const [name, v] of nonzero) add(`${words(key)}: ${words(name)}`, minus(v));
      } else {
        add(words(key), entries.map(([k, v]) => `${words(k)} ${minus(v)}`).join(" · "));
      }
    }
  }
  return out;
}

/** A finished tally in a line: "Ann 29 points · Bob 12 points". */
export function summary(old) {
  const unit = old.unit ? ` ${old.unit}` : "";
  return old.players.map((p) => {
    const scored = old.result?.players.find((r) => r.name === p.name);
    return scored ? `${p.name} ${minus(scored.total)}${unit}` : p.name;
  }).join(" · ") || "no players";
}
