// The scorer's answer on the page: each player's total, place and breakdown, the standings with
// the tie-break, and the totals in the bottom bar. Nobody is ranked before anything is entered,
// and while the totals are not worked out for the counts as they stand nothing of an earlier
// answer is left on the screen: each place says so instead.
import { byId, fill, h, ids } from "./dom.js";
import { minus, t } from "./i18n.js";

const NONE = "–"; // a total not worked out

/** A total and what it counts: "12 ₩" where the game counts money, else "1 point", "5 points". */
export const amount = (n, currency) => (currency ? `${minus(n)} ${currency}` : t("pointsOf", { n, total: minus(n) }));

/** The standings as a screen reader is told them: "1st Ann 12 points, 2nd Ben 9 points"; where no
 * place changed since `before` (the standings last told, of the same players), the players whose
 * total did. */
export function spoken(result, currency, before) {
  const was = new Map(before?.players?.map((r) => [r.name, r]));
  const all = [...result.players].sort((a, b) => a.rank - b.rank);
  const same = before?.players?.length === all.length && all.every((r) => was.get(r.name)?.rank === r.rank);
  return (same ? all.filter((r) => was.get(r.name).total !== r.total) : all)
    .map((r) => `${t("ordinal", { n: r.rank })} ${r.name} ${amount(r.total, currency)}`).join(", ");
}

/** `result` is null while the totals are not worked out; `lines(breakdown, i)` words player i's
 * breakdown; `figures(breakdown)`, where the game has a tie-break, what it compares for a player;
 * `ranked` is false until something is entered; `currency` what the totals count, if money. */
export function showResult(tally, result, { lines, figures, ranked, currency }) {
  const shared = result?.winners.length > 1;
  const won = (name) => ranked && result.winners.includes(name);
  const place = (r) => (ranked ? `${t("ordinal", { n: r.rank })}${won(r.name) ? ` · ${t(shared ? "sharedWin" : "winner")}` : ""}` : "");
  for (const player of tally.players) {
    const scored = result?.players.find((r) => r.name === player.name);
    if (!byId(ids.total(player))) continue;
    const total = scored ? minus(scored.total) : NONE;
    byId(ids.total(player)).textContent = total;
    const unit = byId(ids.total(player)).nextElementSibling; // "points" beside it, "point" for 1
    if (!currency && unit?.classList.contains("unit")) unit.textContent = t("unitAfter", { unit: t("points", { n: scored?.total }) });
    const rank = byId(ids.rank(player));
    rank.textContent = scored ? place(scored) : result ? "" : t("notYet");
    rank.classList.toggle("pending", !result);
    fill(byId(ids.breakdown(player)), scored && lines(scored.breakdown, result.players.indexOf(scored)).map(([term, amount]) =>
      h("div", {}, h("dt", { text: term }), h("dd", { text: amount }))));
    const chip = byId(ids.chip(player));
    chip.textContent = total;
    chip.parentElement.classList.toggle("won", Boolean(scored && won(scored.name)));
  }
  fill(byId(ids.ranking), result ? [...result.players].sort((a, b) => a.rank - b.rank).map((r) => h("li", { class: won(r.name) ? "won" : null },
    h("span", { class: "pos", text: ranked ? t("ordinal", { n: r.rank }) : "" }),
    h("span", { class: "who", text: r.name }),
    h("span", { class: "pts", text: amount(r.total, currency) }),
    won(r.name) ? h("span", { class: "badge", text: t(shared ? "sharedWinBadge" : "winnerBadge") }) : null))
    : h("li", { class: "pending", text: t("notYet") }));
  const tie = byId(ids.tie);
  tie.textContent = ranked ? tieWords(tally.game, result, figures) : "";
  tie.hidden = !tie.textContent;
  const share = byId(ids.part(ids.standings, "share")); // none where the result is only followed
  if (share) share.hidden = !ranked || !result;
}

/** The tie-break of `result` in words, "" where there was none to apply: the rule, then for each
 * group of equal totals the figures it compared (`figures(breakdown)`, where the game has them),
 * and who they put ahead, or that they tie on it too. A tie the rule could not break was said
 * only as a shared place, as if the rule had been forgotten. The play page's result says it in
 * the same words. */
export function tieWords(game, result, figures) {
  const rule = `tieRule.${game}`;
  const totals = [...new Set(result?.players.map((p) => p.total))].sort((a, b) => b - a);
  const groups = t(rule) === rule ? [] : totals.map((total) => result.players.filter((p) => p.total === total)
    .sort((a, b) => a.rank - b.rank)).filter((group) => group.length > 1);
  const names = (g) => g.map((p) => p.name).join(", ");
  return groups.length ? [t("tieBreak"), t(rule), ...groups.map((g) => [
    t("tiedOn", { names: names(g), total: minus(g[0].total) }),
    figures && `${g.map((p) => t("tieFigures", { name: p.name, figures: figures(p.breakdown) })).join("; ")}.`,
    g.every((p) => p.rank === g[0].rank) ? t("tieStill") : t("tieAhead", { names: names(g.filter((p) => p.rank === g[0].rank)) }),
  ].filter(Boolean).join(" "))].join(" ") : "";
}
