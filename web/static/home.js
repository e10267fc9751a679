// The first screen: choose a game, take up an earlier tally again (its winner shown), delete one,
// see the statistics of them all (stats.js), keep every tally as a file and restore them from it,
// and choose the page's language. A game not loaded yet opens once it can (unavailable).
import { ask, byId, failure, fill, h, ids, keepFocus, languageField, showStatus, uid } from "./dom.js";
import { item, locale, minus, t } from "./i18n.js";
import { GAMES, Offline, getJSON, keepable } from "./net.js";
import * as store from "./store.js";

const when = (time) => new Date(time).toLocaleString(locale(), { dateStyle: "medium", timeStyle: "short" });

/** A finished tally in a line: "Ann 29 · Bob 12"; one left with counts to put right has no
 * totals, and says so. */
export function summary(old) {
  const who = old.players.map((p) => {
    const scored = old.result?.players.find((r) => r.name === p.name);
    return scored ? `${p.name} ${minus(scored.total)}` : p.name;
  }).join(" · ");
  if (!who) return t("noPlayers");
  return old.result ? who : `${who} (${t("notTotalled")})`;
}

/** Who won a finished tally ("Winner: Ann", "Shared win: Ann, Bob"); nobody before anything was
 * counted. */
const won = (old) => (old.result && store.entered(old)
  ? t(old.result.winners.length > 1 ? "sharedWinOf" : "winnerOf", { names: old.result.winners.join(", ") }) : "");

/** Why `game` cannot be opened now, or null once it can: a game this phone has not loaded yet
 * needs its box and its sheet from the server (a page the service worker keeps has them all; one
 * served without HTTPS only what it has loaded). */
async function unavailable(game) {
  try {
    let box = store.keptBox(game);
    if (!box) {
      store.remember(`box.${game}`, box = await getJSON(`${GAMES}/${game}`));
      showStatus({ offline: !navigator.onLine });
    }
    await (await import("./sheet.js")).sheetFor(box);
    return null;
  } catch (error) {
    // a sheet not loaded is the network's doing unless the server answers
    const why = error.status || error instanceof Offline ? error
      : navigator.onLine ? await getJSON(GAMES).then(() => error, (e) => e) : new Offline("");
    heard(why);
    const name = store.keptGames()?.games.find((g) => g.id === game)?.name;
    return why.status ? failure(why) : why instanceof Offline ? t("needsNetwork", { game: item("game", game, name) }) : why.message;
  }
}

/** In the status line, what a request failed for: no network, no server (502–504), or neither. */
const heard = (e) => showStatus({ offline: e instanceof Offline && (!e.status || "noAnswer") });

const ending = () => store.cached("shares.stopping") || [];
const endShares = () => import("./live.js").then((live) => live.endKept(), () => {});

let stats = null; // the statistics screen while it is on show: drawn again, not the home screen

/** The statistics of the finished tallies, in place of the home screen, until Back, the page's
 * or the phone's (a step of history); `again`: drawn again where they are on show. */
async function showStatistics(open, relabel, again = false) {
  if (!again) history.pushState({ digsite: "stats" }, "");
  leaveStats = () => {
    stats = null;
    showHome(open, relabel);
    byId(ids.part(ids.earlier, "stats"))?.focus(); // back on its button (if tallies are still listed)
  };
  const { showStats } = await import("./stats.js");
  if (history.state?.digsite === "stats") stats = showStats(() => history.back()); // unless left
}

let leaveStats = null;
let shownWith = null; // the home screen's open and relabel
// Back from the statistics on show, Forward to them from the home screen.
addEventListener("popstate", ({ state }) => {
  if (stats?.isConnected) leaveStats();
  else if (state?.digsite === "stats" && shownWith && byId(ids.choose)) showStatistics(...shownWith, true);
});

/** `open(tally)` takes the tally chosen, a new one or an earlier one, to its sheet; `relabel()`
 * words the page's frame again once the language changes. */
export async function showHome(open, relabel) {
  if (stats?.isConnected) return showStatistics(open, relabel, true);
  shownWith = [open, relabel];
  const main = byId(ids.main);
  byId(ids.bar).hidden = true;
  byId(ids.action).replaceChildren();
  document.title = t("title");
  let catalogue = store.keptGames();
  const start = async (game) => {
    byId(ids.msg(ids.choose)).textContent = "";
    const problem = await unavailable(game);
    if (problem) {
      byId(ids.msg(ids.choose))?.replaceChildren(problem); // the games stay, to choose again
      return;
    }
    await open({ id: uid("t"), game, players: [], created: Date.now() });
    byId(ids.newName())?.focus();
  };
  const reopen = (tally) => (tally ? open(tally) : draw()); // gone if another tab took it
  const named = (old) => ({ game: item("game", old.game, old.name), when: when(old.updated) });
  const remove = async (old) => {
    if (!(await ask(t("deleteAsk", named(old)), t("delete")))) return;
    const at = store.history().findIndex((kept) => kept.id === old.id);
    showStatus({ noStorage: !store.forget(old.id) });
    store.remember("shares.stopping", [...ending(), { of: old.id }]);
    endShares();
    draw();
    const left = main.querySelectorAll(".old"); // the keyboard goes on to the next one
    (left[at] || left[at - 1] || main.querySelector(".game"))?.focus();
  };
  const restore = async (input) => (await import("./share.js")).restoreFrom(input, draw);
  const speak = () => {
    relabel();
    document.title = t("title");
    keepFocus(draw);
  };
  const draw = () => {
    const finished = store.history();
    fill(main,
      h("section", { class: "card", "aria-labelledby": ids.choose },
        h("h2", { id: ids.choose, tabindex: -1, text: t("chooseGame") }),
        catalogue
          ? h("div", { class: "games" }, catalogue.games.map((game) =>
            h("button", { type: "button", class: "game", text: item("game", game.id, game.name), onclick: () => start(game.id) })))
          : h("p", { class: "muted", text: t("waitingGames") }),
        h("p", { id: ids.msg(ids.choose), class: "msg", role: "alert" }),
        h("p", {}, h("a", { href: "/play", class: "thumb", text: t("playOnline") })),
        // a page the phone cannot keep says what that means before the network goes
        keepable ? null : h("p", { class: "muted", text: t("notKept") })),
      finished.length ? h("section", { class: "card", "aria-labelledby": ids.earlier },
        h("h2", { id: ids.earlier, text: t("earlier") }),
        h("p", {}, h("button", { type: "button", id: ids.part(ids.earlier, "stats"), text: t("statsOpen"), onclick: () => showStatistics(open, relabel) })),
        h("ul", { class: "history" }, finished.map((old) => h("li", {}, h("button", {
          type: "button", class: "old", onclick: () => reopen(store.reopen(old.id)),
        }, h("strong", { text: item("game", old.game, old.name) }), " ",
        h("span", { class: "muted", text: when(old.updated) }),
        h("span", { class: "who", text: summary(old) }),
        won(old) ? h("span", { class: "won", text: won(old) }) : null),
        h("button", { type: "button", class: "quiet danger-text", text: t("delete"), "aria-label": t("deleteOf", named(old)),
          onclick: () => remove(old) }))))) : null,
      h("section", { class: "card", "aria-labelledby": ids.data },
        h("h2", { id: ids.data, text: t("yourData") }),
        languageField(speak),
        finished.length ? h("button", { type: "button", text: t("downloadAll"), onclick: async () =>
          (await import("./share.js")).downloadAll(finished) }) : null,
        h("div", { class: "field" },
          h("label", { for: ids.setting("backup"), text: t("restoreFrom") }),
          h("input", { type: "file", id: ids.setting("backup"), accept: "application/json,.json",
                       "aria-describedby": ids.msg(ids.setting("backup")), onchange: (e) => restore(e.target) }),
          h("p", { id: ids.msg(ids.setting("backup")), class: "msg" }))),
    );
  };
  draw();
  if (ending().length) endShares();
  try {
    const had = JSON.stringify(catalogue);
    const answered = await getJSON(GAMES);
    if (!store.isGameList(answered)) throw new Offline(`${GAMES} answered no list of games.`);
    store.remember("games", catalogue = answered);
    // The list may come from this phone's copy (the service worker's): it says the server answered
    // only while the phone has a network.
    showStatus({ offline: !navigator.onLine });
    // still on show, drawn again only if the games changed
    if (had !== JSON.stringify(catalogue) && !store.load()?.game && byId(ids.choose)) keepFocus(draw);
  } catch (error) {
    heard(error);
    if (!catalogue && byId(ids.choose)) {
      const again = () => byId(ids.choose) && showHome(open, relabel);
      main.append(h("p", { class: "msg", text: error.status ? failure(error) : t("noServerGames") }));
      // a server that answered, or a list cut off on its way: asked again a moment later
      if (error.status || navigator.onLine) setTimeout(again, (error.after > 0 ? error.after : 5) * 1000);
      else addEventListener("online", again, { once: true });
    }
  }
}
