// The first screen: choose a game, or take up an earlier tally again.
import { byId, fill, h, ids, showStatus, uid } from "./dom.js";
import { GAMES, Offline, getJSON } from "./net.js";
import { summary } from "./results.js";
import * as store from "./store.js";

/** `open(tally)` takes the tally chosen, a new one or an earlier one, to its sheet. */
export async function showHome(open) {
  const main = byId(ids.main);
  byId(ids.bar).hidden = true;
  document.title = "Digsite scorer";
  let catalogue = store.cached("games");
  const start = async (game) => {
    await open({ id: uid("t"), game, players: [], created: Date.now() });
    byId(ids.newName())?.focus();
  };
  const reopen = (tally) => (tally ? open(tally) : draw()); // gone if another tab took it
  const draw = () => {
    const finished = store.history();
    fill(main,
      h("section", { class: "card", "aria-labelledby": ids.choose },
        h("h2", { id: ids.choose, text: "Choose a game" }),
        catalogue
          ? h("div", { class: "games" }, catalogue.games.map((game) =>
            h("button", { type: "button", class: "game", text: game.name, onclick: () => start(game.id) })))
          : h("p", { class: "muted", text: "Waiting for the list of games…" })),
      finished.length ? h("section", { class: "card", "aria-labelledby": ids.earlier },
        h("h2", { id: ids.earlier, text: "Earlier tallies" }),
        h("ul", { class: "history" }, finished.map((old) => h("li", {}, h("button", {
          type: "button", class: "old", onclick: () => reopen(store.reopen(old.id)),
        }, h("strong", { text: old.name || old.game }), " ",
        h("span", { class: "muted", text: new Date(old.updated).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) }),
        h("span", { class: "who", text: summary(old) })))))) : null,
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
      main.append(h("p", { class: "msg", text: error instanceof Offline
        ? "The server cannot be reached; the games appear when the connection is back." : error.message }));
      addEventListener("online", () => showHome(open), { once: true });
    }
  }
}
