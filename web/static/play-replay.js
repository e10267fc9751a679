// A match's replay at /play/{id}/replay: move by move, the board as it was after each move, drawn by
// the game's own board from the match's view at that version (GET /matches/{id}/views/{version}),
// with the move in words beside it. From this phone's seat when it holds one (its own secrets then,
// no other seat's), else as a spectator, with a switch to the spectator's view; stepped with Start,
// Back, Next and End; the result at the end. A match still playing has no past views: its moves
// are told in words alone.
import { byId, fill, h, ids } from "./dom.js";
import { item, t } from "./i18n.js";
import { Problem, api, box as boxOf, problemWords, seatIn } from "./play-net.js";
import { awayWords, botTag, describeEntry, drawBoard, entryItem, loadBoard, takenBack } from "./play-boards.js";
import { amount } from "./results.js";
import { wordsFor } from "./sheet.js";

const PAGE = 200;
const main = byId(ids.main);
let replay = null; // { id, token, view, box, log, at, spectator, views }

// A past view offers nothing to tap: each place of the board is drawn as it stands.
const still = {
  left: new Set(),
  take: () => null,
  button: (_taken, { hint, ...attributes }, ...children) => h("div", { ...attributes, class: `${attributes.class || ""} still` }, ...children),
  idFor: () => "",
};

export async function showReplay(id) {
  let token = seatIn(id)?.token;
  try {
    const view = await api(`/matches/${id}`, { token }).catch((error) => {
      if (error instanceof Problem && error.status === 401) {
        token = undefined; // the seat was given a new token elsewhere: watched as a spectator
        return api(`/matches/${id}`);
      }
      throw error;
    });
    if (view.you == null) token = undefined;
    const box = await boxOf(view.game);
    await wordsFor(box).catch(() => null);
    await loadBoard(view.game);
    const log = [];
    for (let after = 0; after != null;) {
      const page = await api(`/matches/${id}/log?after=${after}&limit=${PAGE}`, { token });
      log.push(...page.log);
      after = page.next;
    }
    const asked = new URLSearchParams(location.search);
    replay = {
      id, token, view, box, log, views: new Map(),
      at: Math.max(0, Math.min(log.length, Number(asked.get("move")) || 0)),
      spectator: !token || asked.get("as") === "spectator",
    };
  } catch (error) {
    fill(main, h("section", { class: "card" }, h("h2", { text: t("play.cannotLoad") }), h("p", { class: "muted", text: problemWords(error, "play.offline") })));
    return;
  }
  await draw();
}

/** The view after `at` moves (the match's version at + 1) as the replay shows it: null while the
 * match is still playing. Each is asked once; the next one is asked ahead, for a quick Next. */
function pastView(at) {
  const { id, token, view, spectator, views, log } = replay;
  if (view.status !== "finished" || at < 0 || at > log.length) return Promise.resolve(null);
  const key = `${spectator ? "spectator" : "seat"}:${at}`;
  if (!views.has(key)) {
    views.set(key, api(`/matches/${id}/views/${at + 1}`, { token: spectator ? undefined : token }).catch((error) => {
      views.delete(key);
      throw error;
    }));
  }
  return views.get(key);
}

function go(at) {
  replay.at = Math.max(0, Math.min(replay.log.length, at));
  address();
  draw().then(() => byId(at > replay.log.length / 2 ? "replay-back" : "replay-next")?.focus({ preventScroll: true }));
}

function address() {
  const query = new URLSearchParams({ move: replay.at });
  if (replay.token && replay.spectator) query.set("as", "spectator");
  history.replaceState(null, "", `?${query}`);
}

function seeAs(spectator) {
  replay.spectator = spectator;
  address();
  draw();
}

/** The board's places by their spot: what each shows, or (`elements`) the places themselves. */
const spots = (elements = false) => new Map([...main.querySelectorAll("[data-spot]")]
  .map((el) => [el.dataset.spot, elements ? el : el.textContent]));

async function draw() {
  const wanted = { at: replay.at, spectator: replay.spectator };
  let past = null;
  let failure = null;
  try {
    past = await pastView(wanted.at);
  } catch (error) {
    failure = error;
  }
  // a later step asked meanwhile draws instead
  if (replay.at !== wanted.at || replay.spectator !== wanted.spectator) return;
  const { view, box, log, at } = replay;
  const name = item("game", box.id, box.name);
  document.title = `${name} · ${t("play.replay")}`;
  const focused = document.activeElement?.id;
  const shown = log.slice(0, at);
  const back = takenBack(shown); // the moves an undo shown so far took back
  const board = past && drawBoard(past, box, still);
  const before = replay.drawn?.spectator === wanted.spectator ? spots() : null;
  replay.drawn = wanted;
  fill(byId(ids.action), h("a", { class: "new", href: "/play", text: t("play.newMatch") }));
  fill(main,
    h("section", { class: "card intro", "aria-labelledby": "replay-title" },
      h("h2", { id: "replay-title", text: `${name} · ${t("play.replay")}` }),
      h("p", { class: "muted", text: view.players.map((p) => p.name).join(", ") }),
      h("p", { id: "replay-at", role: "status", text: t("play.replayAt", { n: at, total: log.length }) }),
      h("p", { class: "acts" },
        h("button", { type: "button", id: "replay-start", class: "quiet", disabled: at === 0, onclick: () => go(0), text: `⏮ ${t("play.replayStart")}` }),
        h("button", { type: "button", id: "replay-back", class: "quiet", disabled: at === 0, onclick: () => go(at - 1), text: `◀ ${t("play.replayBack")}` }),
        h("button", { type: "button", id: "replay-next", class: "primary", disabled: at === log.length, onclick: () => go(at + 1), text: `${t("play.replayNext")} ▶` }),
        h("button", { type: "button", id: "replay-end", class: "quiet", disabled: at === log.length, onclick: () => go(log.length), text: `${t("play.replayEnd")} ⏭` })),
      replay.token && view.status === "finished" && h("p", { class: "check" },
        h("input", { type: "checkbox", id: "replay-spectator", checked: replay.spectator, onchange: (event) => seeAs(event.target.checked) }),
        h("label", { for: "replay-spectator", text: t("play.replayAsSpectator") }))),
    h("section", { class: "card", "aria-labelledby": "replay-now" },
      h("h2", { id: "replay-now", text: t("play.replayMove") }),
      h("p", { id: "replay-entry", class: "entry", text: at ? describeEntry(log[at - 1], view, box) : t("play.replayBefore") })),
    past && seatsThen(past),
    board && h("section", { class: `card board game-${view.game}`, "aria-label": t("play.board"), "data-replay-version": past.version }, board),
    view.status !== "finished" && h("p", { class: "muted", text: t("play.replayNoBoard") }),
    failure && h("p", { class: "muted", text: problemWords(failure, "play.offline") }),
    h("section", { class: "card", "aria-labelledby": "replay-so-far" },
      h("h2", { id: "replay-so-far", text: t("play.moves") }),
      h("ol", { class: "recent", reversed: true }, shown.slice(-12).reverse().map((entry) => entryItem(entry, view, box, back)))),
    at === log.length && view.result && h("section", { class: "card", "aria-labelledby": "replay-result" },
      h("h2", { id: "replay-result", text: t("play.result") }),
      h("ol", { class: "ranking" }, [...view.result.players].sort((a, b) => a.rank - b.rank).map((p) => h("li", { class: view.result.winners.includes(p.name) ? "won" : null },
        h("span", { class: "pos", text: t("ordinal", { n: p.rank }) }), h("span", { class: "who", text: p.name }),
        h("span", { class: "pts", text: amount(p.total, box.currency) }))))),
    h("p", {}, h("a", { href: `/play/${replay.id}`, text: t("play.toTable") })));
  // what the step changed on the board flashes briefly, as a move heard at the table does
  if (before?.size) {
    for (const [spot, el] of spots(true)) if (before.has(spot) && before.get(spot) !== el.textContent) el.classList.add("changed");
  }
  if (focused && byId(focused) && !byId(focused).disabled) byId(focused).focus({ preventScroll: true });
  pastView(at + 1).catch(() => {});
}

/** The seats as they were at that version: a seat left to a bot shows the bot. */
function seatsThen(past) {
  return h("ul", { class: "card seats", "aria-label": t("play.seats") }, past.players.map((p) => h("li", {
    class: [past.to_act.includes(p.seat) && past.status !== "finished" && "acting", p.seat === past.you && "me"].filter(Boolean).join(" "),
  },
  h("span", { class: `mark s${p.seat}`, "aria-hidden": "true" }),
  h("b", { text: p.name ?? t("play.openSeat") }),
  p.seat === past.you && h("span", { class: "tag", text: t("play.you") }),
  botTag(p),
  p.away && h("span", { class: "tag bot", text: awayWords(p) }))));
}
