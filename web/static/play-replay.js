// A match's replay at /play/{id}/replay: its log, move by move, as this phone's seat may see it
// (or as a spectator), stepped through with Back and Next, and the result at the end.
import { byId, fill, h, ids } from "./dom.js";
import { item, minus, t } from "./i18n.js";
import { Problem, api, box as boxOf, seatIn } from "./play-net.js";
import { describeEntry, loadBoard } from "./play-boards.js";
import { sheetFor } from "./sheet.js";

const PAGE = 200;
const main = byId(ids.main);
let replay = null; // { view, box, log, at }

export async function showReplay(id) {
  const token = seatIn(id)?.token;
  try {
    const view = await api(`/matches/${id}`, { token }).catch((error) => {
      if (error instanceof Problem && error.status === 401) return api(`/matches/${id}`);
      throw error;
    });
    const box = await boxOf(view.game);
    await sheetFor(box).catch(() => null);
    await loadBoard(view.game);
    const log = [];
    for (let after = 0; after != null;) {
      const page = await api(`/matches/${id}/log?after=${after}&limit=${PAGE}`, { token: view.you == null ? undefined : token });
      log.push(...page.log);
      after = page.next;
    }
    replay = { id, view, box, log, at: Number(new URLSearchParams(location.search).get("move")) || 0 };
  } catch (error) {
    fill(main, h("section", { class: "card" }, h("h2", { text: t("play.cannotLoad") }), h("p", { class: "muted", text: error.message })));
    return;
  }
  draw();
}

function go(at) {
  replay.at = Math.max(0, Math.min(replay.log.length, at));
  history.replaceState(null, "", `?move=${replay.at}`);
  draw();
  byId(at > replay.log.length / 2 ? "replay-back" : "replay-next")?.focus({ preventScroll: true });
}

function draw() {
  const { view, box, log, at } = replay;
  const name = item("game", box.id, box.name);
  document.title = `${name} · ${t("play.replay")}`;
  const focused = document.activeElement?.id;
  const shown = log.slice(0, at);
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
        h("button", { type: "button", id: "replay-end", class: "quiet", disabled: at === log.length, onclick: () => go(log.length), text: `${t("play.replayEnd")} ⏭` }))),
    h("section", { class: "card", "aria-labelledby": "replay-now" },
      h("h2", { id: "replay-now", text: t("play.replayMove") }),
      h("p", { id: "replay-entry", class: "entry", text: at ? describeEntry(log[at - 1], view, box) : t("play.replayBefore") })),
    h("section", { class: "card", "aria-labelledby": "replay-so-far" },
      h("h2", { id: "replay-so-far", text: t("play.moves") }),
      h("ol", { class: "recent", reversed: true }, shown.slice(-12).reverse().map((entry) => h("li", { value: entry.seq, text: describeEntry(entry, view, box) })))),
    at === log.length && view.result && h("section", { class: "card", "aria-labelledby": "replay-result" },
      h("h2", { id: "replay-result", text: t("play.result") }),
      h("ol", { class: "ranking" }, [...view.result.players].sort((a, b) => a.rank - b.rank).map((p) => h("li", { class: view.result.winners.includes(p.name) ? "won" : null },
        h("span", { class: "pos", text: t("ordinal", { n: p.rank }) }), h("span", { class: "who", text: p.name }),
        h("span", { class: "pts", text: `${minus(p.total)} ${box.currency || t("points")}` }))))),
    h("p", {}, h("a", { href: `/play/${replay.id}`, text: t("play.toTable") })));
  if (focused && byId(focused) && !byId(focused).disabled) byId(focused).focus({ preventScroll: true });
}
