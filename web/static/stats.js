// The statistics of the finished tallies kept on this phone, as BG Stats offers them: for each
// game, and for all games, each player's games, wins (a shared win apart), win share, average and
// best score; and head to head, two players' games together, how often each placed higher and how
// often they shared a place. A player is known by name as the page tells players apart
// (store.nameKey); a player's win is the result's, tie-break and shared wins included. All from
// the phone's own store, with no network.
//
// A tally counts only while its kept totals answer its counts as they stand: this phone's scorer
// totals its counts again on the game's box, and one kept without totals, with totals of counts or
// rules since changed, or with nothing entered, is left out, and the page says so. Reading the
// tallies changes none of them.
import { byId, fill, h, ids, keepFocus } from "./dom.js";
import { item, language, locale, minus, t, useGameWords } from "./i18n.js";
import { GAMES, getJSON } from "./net.js";
import { sheetFor } from "./sheet.js";
import words from "./stats.words.js";
import * as store from "./store.js";

// Its own words, found as a game's are once its sheet is loaded: no page loads them before it.
useGameWords("stats", words);

// Its own styles, loaded with it rather than with the first page.
const styled = new Promise((done) => document.head.append(h("link", {
  rel: "stylesheet", href: new URL("./stats.css", import.meta.url).href, onload: done, onerror: done })));

const SCREEN = "stats";
const id = (part) => ids.part(SCREEN, part);

/** A game's box and scorer as this phone has them (the box kept, else the server's), or null
 * where it has neither and the server cannot be reached. */
async function gameOf(game) {
  try {
    let box = store.keptBox(game);
    if (!box) store.remember(`box.${game}`, box = await getJSON(`${GAMES}/${game}`));
    return { box, ...(await sheetFor(box)) };
  } catch {
    return null;
  }
}

/** A result as the statistics read it: each player's total and place, and the winners. */
const standing = (result) => JSON.stringify([result.players.map((p) => [p.name, p.total, p.rank]).sort(),
  [...result.winners].sort()]);

/** Whether a kept tally's result is this phone's scorer's answer to its counts as they stand. */
function current(tally, game) {
  const keys = tally.players.map((p) => store.nameKey(p.name));
  if (new Set(keys).size !== keys.length) return false;
  try {
    const copy = structuredClone(tally); // the sheet's functions read it; nothing kept changes
    return standing(game.score(game.box, game.request(game.box, copy, game.groups(game.box, copy)))) === standing(tally.result);
  } catch {
    return false; // a count that is no number, a table the scorer refuses
  }
}

/** A counted tally as a play: its game, date and, for each player, key, name, total, place and
 * share of the win (1 alone, 1/k shared by k, else 0). */
const play = (tally) => ({
  game: tally.game, when: tally.updated,
  players: tally.result.players.map((r) => ({
    key: store.nameKey(r.name), name: r.name, total: r.total, rank: r.rank,
    won: tally.result.winners.includes(r.name) ? 1 / tally.result.winners.length : 0,
  })),
});

/** Every finished tally read: `plays` that count (the latest first), how many do not (`stale`),
 * how many of each game this phone cannot check without the network (`unloaded`), and the games
 * (box and scorer) by id. */
export async function read(history = store.history()) {
  const games = new Map();
  for (const game of new Set(history.map((tally) => tally.game))) games.set(game, await gameOf(game));
  const found = { plays: [], stale: 0, unloaded: new Map(), games };
  for (const tally of history) {
    const game = games.get(tally.game);
    if (!tally.result || !store.entered(tally)) found.stale += 1;
    else if (!game) found.unloaded.set(tally.game, (found.unloaded.get(tally.game) || 0) + 1);
    else if (current(tally, game)) found.plays.push(play(tally));
    else found.stale += 1;
  }
  return found;
}

/** Each player's figures over `plays`: games, sole wins, shared wins, win share (the simulations'
 * share: a win shared by k counts 1/k), average and best total; the best share first. A player's
 * name is as last written. */
export function players(plays) {
  const all = new Map();
  for (const { players: scored } of plays) {
    for (const r of scored) {
      if (!all.has(r.key)) all.set(r.key, { key: r.key, name: r.name, games: 0, wins: 0, shared: 0, won: 0, sum: 0, best: -Infinity });
      const f = all.get(r.key);
      f.games += 1;
      if (r.won === 1) f.wins += 1;
      else if (r.won) f.shared += 1;
      f.won += r.won;
      f.sum += r.total;
      f.best = Math.max(f.best, r.total);
    }
  }
  return [...all.values()].map(({ won, sum, ...f }) => ({ ...f, share: won / f.games, average: sum / f.games }))
    .sort((a, b) => b.share - a.share || b.games - a.games || a.name.localeCompare(b.name, language));
}

/** Players `a` and `b` (keys) over `plays`: the games they played together, how often each placed
 * higher than the other, and how often they shared a place. */
export function headToHead(plays, a, b) {
  const found = { together: 0, higher: [0, 0], same: 0 };
  for (const { players: scored } of plays) {
    const [x, y] = [a, b].map((key) => scored.find((r) => r.key === key));
    if (!x || !y) continue;
    found.together += 1;
    if (x.rank === y.rank) found.same += 1;
    else found.higher[x.rank < y.rank ? 0 : 1] += 1;
  }
  return found;
}

/** The best total of `plays` with who scored it and when (the first tally to see it: every
 * player of it who scored it, not only the first named), and the average of every total. */
export function scores(plays) {
  let best = null;
  let sum = 0;
  let n = 0;
  for (const p of [...plays].reverse()) {
    for (const r of p.players) {
      if (best?.play === p && r.total === best.total) best.name += `, ${r.name}`;
      if (!best || r.total > best.total) best = { total: r.total, name: r.name, when: p.when, play: p };
      sum += r.total;
      n += 1;
    }
  }
  return { best, average: n ? sum / n : 0 };
}

const decimal = (n) => `${n < 0 ? "−" : ""}${Math.abs(n).toLocaleString(locale(), { maximumFractionDigits: 1 })}`;
const percent = (n) => n.toLocaleString(locale(), { style: "percent", maximumFractionDigits: 0 });
const day = (time) => new Date(time).toLocaleDateString(locale(), { dateStyle: "medium" });

const figure = (term, amount) => h("div", {}, h("dt", { text: term }), h("dd", { text: amount }));

let chosen = { game: "", a: "", b: "" }; // the game shown ("": all), the two players compared

/** Draws the statistics in place of the home screen; `back()` leads back to it. The screen's
 * element, kept while it is on show: at once, while the figures are read, so that a Back pressed
 * meanwhile leaves it. */
export function showStats(back) {
  byId(ids.bar).hidden = true;
  fill(byId(ids.action), h("button", { type: "button", class: "new", text: t("back"), onclick: back }));
  document.title = `${t("statistics")} · ${t("title")}`;
  const screen = h("div", { id: SCREEN, "aria-busy": "true" }, h("p", { class: "muted", text: t("loading") }));
  fill(byId(ids.main), screen);
  Promise.all([read(), styled]).then(([found]) => {
    if (!screen.isConnected) return; // left meanwhile
    const draw = () => fill(screen, ...statistics(found, draw));
    draw();
    screen.removeAttribute("aria-busy");
    byId(id("h")).focus();
  });
  return screen;
}

function statistics(found, draw) {
  const name = (game) => item("game", game, found.games.get(game)?.box.name);
  const shown = found.plays.filter((p) => !chosen.game || p.game === chosen.game);
  // a score as the tally says it ("1 point", "5 ₩", "5점"), `text` the figure as written (an
  // average to a tenth: "point" or "points" by that)
  const unit = chosen.game && ((n, text = minus(n)) => {
    const currency = found.games.get(chosen.game).box.currency;
    return currency ? `${text} ${currency}` : t("pointsOf", { n: Math.round(n * 10) / 10, total: text });
  });
  const choose = (change) => {
    chosen = { ...chosen, ...change };
    keepFocus(draw);
  };
  const intro = h("section", { class: "card", "aria-labelledby": id("h") },
    h("h2", { id: id("h"), tabindex: "-1", text: t("statistics") }),
    h("p", { class: found.plays.length ? "muted" : null, text: found.plays.length ? t("statsFrom", { n: found.plays.length }) : t("statsNone") }),
    found.stale ? h("p", { text: t("statsNotCounted", { n: found.stale }) }) : null,
    [...found.unloaded].map(([game, n]) => h("p", { class: "msg", text: t("statsNeedNetwork", { n, game: name(game) }) })));
  if (!found.plays.length) return [intro];
  const listed = (store.keptGames()?.games || []).map((g) => g.id);
  const place = (game) => (listed.includes(game) ? listed.indexOf(game) : listed.length);
  const games = [...new Set(found.plays.map((p) => p.game))].sort((a, b) => place(a) - place(b)); // as the catalogue lists them
  if (!games.includes(chosen.game)) chosen.game = "";
  const { best, average } = scores(shown);
  intro.append(
    h("div", { class: "field" },
      h("label", { for: id("game"), text: t("statsGame") }),
      h("select", { id: id("game"), onchange: (e) => choose({ game: e.target.value }) },
        h("option", { value: "", text: t("allGames"), selected: !chosen.game }),
        games.map((game) => h("option", { value: game, text: name(game), selected: game === chosen.game })))),
    h("dl", { class: "figures" },
      figure(t("played"), String(shown.length)),
      // all games: how many of each; one game: its scores (each game counts its own unit)
      unit ? [figure(t("averageScore"), unit(average, decimal(average))),
        figure(t("bestScore"), t("bestOf", { score: unit(best.total), name: best.name, when: day(best.when) }))]
        : games.map((game) => figure(name(game), String(shown.filter((p) => p.game === game).length)))));
  const figures = players(shown);
  return [intro, playersCard(figures, unit), headToHeadCard(shown, figures, choose)];
}

function playersCard(figures, unit) {
  return h("section", { class: "card", "aria-labelledby": id("players") },
    h("h2", { id: id("players"), text: t("statsPlayers") }),
    h("p", { class: "muted", text: t("winShareHint") }),
    h("ul", { class: "standing" }, figures.map((f) => h("li", {},
      h("h3", { text: f.name }),
      h("dl", { class: "figures" },
        figure(t("played"), String(f.games)),
        figure(t("wins"), f.shared ? t("winsShared", { wins: f.wins, shared: f.shared }) : String(f.wins)),
        figure(t("winShare"), percent(f.share)),
        unit ? figure(t("averageScore"), unit(f.average, decimal(f.average))) : null,
        unit ? figure(t("bestScore"), unit(f.best)) : null)))));
}

function headToHeadCard(plays, figures, choose) {
  const card = h("section", { class: "card", "aria-labelledby": id("h2h") }, h("h2", { id: id("h2h"), text: t("headToHead") }));
  if (figures.length < 2) {
    card.append(h("p", { text: t("h2hNeedsTwo") }));
    return card;
  }
  const known = (key) => figures.some((f) => f.key === key);
  const a = known(chosen.a) ? chosen.a : figures[0].key;
  const b = known(chosen.b) && chosen.b !== a ? chosen.b : figures.find((f) => f.key !== a).key;
  // Choosing for one side the player on the other swaps them.
  const pick = (which, label, value, [other, theirs]) => h("div", { class: "field" },
    h("label", { for: id(which), text: t(label) }),
    h("select", { id: id(which), onchange: (e) => choose({ [which]: e.target.value, [other]: e.target.value === theirs ? value : theirs }) },
      figures.map((f) => h("option", { value: f.key, text: f.name, selected: f.key === value }))));
  const nameOf = (key) => figures.find((f) => f.key === key).name;
  const found = headToHead(plays, a, b);
  card.append(pick("a", "h2hPlayer", a, ["b", b]), pick("b", "h2hAgainst", b, ["a", a]),
    h("dl", { class: "figures", "aria-live": "polite" },
      figure(t("together"), String(found.together)),
      figure(t("placedHigher", { name: nameOf(a) }), String(found.higher[0])),
      figure(t("placedHigher", { name: nameOf(b) }), String(found.higher[1])),
      figure(t("samePlace"), String(found.same))));
  return card;
}
