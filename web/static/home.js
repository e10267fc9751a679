// The first screen: choose a game, take up an earlier tally again (its winner shown), delete one,
// keep every tally as a file and restore them from it, and choose the page's language.
import { ask, byId, fill, h, ids, markInvalid, say, showStatus, uid } from "./dom.js";
import { LANGUAGES, item, language, minus, t, useLanguage } from "./i18n.js";
import { GAMES, Offline, getJSON } from "./net.js";
import { entered } from "./sheet.js";
import * as store from "./store.js";

const when = (time) => new Date(time).toLocaleString(language, { dateStyle: "medium", timeStyle: "short" });

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
const won = (old) => (old.result && entered(old)
  ? t(old.result.winners.length > 1 ? "sharedWinOf" : "winnerOf", { names: old.result.winners.join(", ") }) : "");

/** `open(tally)` takes the tally chosen, a new one or an earlier one, to its sheet; `relabel()`
 * words the page's frame again once the language changes. */
export async function showHome(open, relabel) {
  const main = byId(ids.main);
  byId(ids.bar).hidden = true;
  byId(ids.action).replaceChildren();
  document.title = t("title");
  let catalogue = store.cached("games");
  const start = async (game) => {
    await open({ id: uid("t"), game, players: [], created: Date.now() });
    byId(ids.newName())?.focus();
  };
  const reopen = (tally) => (tally ? open(tally) : draw()); // gone if another tab took it
  const named = (old) => ({ game: item("game", old.game, old.name), when: when(old.updated) });
  const remove = async (old) => {
    if (!(await ask(t("deleteAsk", named(old)), t("delete")))) return;
    showStatus({ noStorage: !store.forget(old.id) });
    draw();
  };
  const restore = async (input) => {
    const [file] = input.files;
    if (!file) return;
    const tallies = (await import("./share.js")).readBackup(await file.text());
    const back = tallies && store.restore(tallies);
    showStatus({ noStorage: back === null });
    if (tallies && back !== null) {
      draw();
      say(t("restored", { n: back }));
      return;
    }
    markInvalid(input, !tallies);
    byId(ids.msg(input.id)).textContent = tallies ? "" : t("notABackup");
  };
  const speak = async (code) => {
    store.remember("lang", code);
    await useLanguage(code);
    relabel();
    draw();
  };
  const draw = () => {
    const finished = store.history();
    fill(main,
      h("section", { class: "card", "aria-labelledby": ids.choose },
        h("h2", { id: ids.choose, text: t("chooseGame") }),
        catalogue
          ? h("div", { class: "games" }, catalogue.games.map((game) =>
            h("button", { type: "button", class: "game", text: item("game", game.id, game.name), onclick: () => start(game.id) })))
          : h("p", { class: "muted", text: t("waitingGames") })),
      finished.length ? h("section", { class: "card", "aria-labelledby": ids.earlier },
        h("h2", { id: ids.earlier, text: t("earlier") }),
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
        h("div", { class: "field" },
          h("label", { for: ids.setting("language"), text: t("language") }),
          h("select", { id: ids.setting("language"), onchange: (e) => speak(e.target.value) },
            Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, text: name, selected: code === language })))),
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
  try {
    catalogue = await getJSON(GAMES);
    store.remember("games", catalogue);
    showStatus({ offline: false });
    if (!store.load()?.game) draw();
  } catch (error) {
    if (error instanceof Offline) showStatus({ offline: true });
    if (!catalogue) {
      main.append(h("p", { class: "msg", text: error instanceof Offline ? t("noServerGames") : error.message }));
      addEventListener("online", () => showHome(open, relabel), { once: true });
    }
  }
}
