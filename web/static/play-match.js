// A match at /play/{id} (README "The play page").
import { ask, byId, fill, h, ids, say } from "./dom.js";
import { item, minus, t } from "./i18n.js";
import { ANSWER_SAID_MS, Offline, Problem, api, box as boxOf, forgetSeat, forgetView, freeBotName, keepSeat, keepView, keptView, lastName, lost, pendingBody, pendingWhere, problemWords, readStream, rememberLost, rememberName, seatIn, send, serverAhead, terms, unpendPath } from "./play-net.js";
import { awayWords, botTag, describeAction, describeEntry, drawBoard, entryItem, gamePart, loadBoard, takenBack } from "./play-boards.js";
import { amount, tieWords } from "./results.js";
import { sheetFor, wordsFor } from "./sheet.js";

const RECENT = 8; // the moves shown under the board, the latest first
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];
const QUIET_MS = 40_000; // the server says something every 15 s: this long without a word, it is gone

const main = byId(ids.main);
// A double tap's second tap (the browser counts them) lands on what the first drew under the
// finger (another move, Leave, a dialog's button): not taken.
document.addEventListener("click", (event) => {
  if (event.detail > 1 && event.target.closest("button")) {
    event.stopPropagation();
    event.preventDefault();
  }
}, true);
let match = null; // { id, held, view, box, sheet, entries, lastId, busy, wanted, typed, folded, lost, joining }
let controller = null;
let retry = 0;
let tries = 0;
let clockTimer = 0;
const SAID = "digsite.play.said"; // words to say on the next page this tab opens (play.js)
let presenceTimer = 0;
const PRESENCE_MS = 30_000; // how often the table is looked at again for who is there

/** Opens match `id`; `wanted` is the seat a link offers (?seat=N). */
export async function openMatch(id, wanted) {
  await takeLink(id);
  match = { id, held: seatIn(id), view: null, box: null, sheet: null, entries: new Map(), lastId: null, busy: false, wanted, link: "connecting", folded: new Set(), lost: lost(id) };
  try {
    await load();
  } catch (error) {
    // No network, or no answer: the table as last seen, opened again later (README)
    if (error instanceof Offline) {
      const again = () => {
        removeEventListener("online", again);
        clearTimeout(later);
        openMatch(id, wanted);
      };
      const later = setTimeout(again, RETRY_MS[3]);
      addEventListener("online", again);
    }
    if (!(error instanceof Offline && (await lastSeen()))) failed(error);
    return;
  }
  listen();
  clearInterval(presenceTimer);
  presenceTimer = setInterval(lookAgain, PRESENCE_MS);
}

/** Who is at the table, looked at again: a player's coming and going is no move, and no stream
 * tells of it. Said in place; a view of another version is drawn as any. */
async function lookAgain() {
  const { view } = match;
  if (document.visibilityState !== "visible" || !view || view.status === "finished") return;
  let again;
  try {
    again = await api(`/matches/${match.id}`, { token: token() });
  } catch {
    return; // the stream says what became of the connection
  }
  unplayed(again);
  if (again.version !== match.view?.version) return show(again);
  match.view = again;
  for (const p of again.players) {
    const el = main.querySelector(`[data-presence="${p.seat}"]`);
    if (el) [el.className, el.textContent] = Object.values(presence(p));
  }
}

/** Whether a person's seat (not this phone's, nor a bot's) has its player at the table. */
const presence = (p) => ({ class: `tag presence ${p.connected ? "on" : "off"}`, text: t(p.connected ? "play.online" : "play.offlineSeat") });

const token = () => match.held?.token;

/** A seat's new link: its token, after its #, taken as README "The play page" says. */
async function takeLink(id) {
  const given = new URLSearchParams(location.hash.slice(1));
  const link = given.get("token");
  const leave = () => history.replaceState(null, "", `/play/${id}`);
  const host = given.get("host");
  if (host) {
    try {
      const view = await seatOf(id, host); // the host's token reads as no seat's
      if (view?.you === null) {
        keepSeat(id, { host, game: view.game });
        say(t("play.hostLinkTaken"), LINK_SAID_MS);
      } else say(t("play.hostLinkRefused"), LINK_SAID_MS);
    } catch (error) {
      // not asked, or not answered: the link stays in the address, tried again later
      return say(error instanceof Offline ? t("play.hostLinkOffline") : problemWords(error), LINK_SAID_MS);
    }
    return leave();
  }
  if (!link) return;
  const seat = /^\d+$/.test(given.get("seat") || "") ? Number(given.get("seat")) : null;
  if (seat == null) {
    leave();
    return say(t("play.linkRefused"), LINK_SAID_MS);
  }
  const had = seatIn(id);
  try {
    if (had?.token !== link) {
      const view = await seatOf(id, link);
      if (view?.you !== seat) {
        leave();
        return say(t("play.linkRefused"), LINK_SAID_MS);
      }
      if (had?.token && (await seatOf(id, had.token))?.you === had.seat) {
        if (had.seat !== seat) say(t("play.otherSeatHeld", { n: had.seat + 1 }), LINK_SAID_MS);
      } else {
        keepSeat(id, { seat, token: link, name: view.players[seat]?.name, game: view.game });
      }
    }
  } catch (error) {
    // Not asked (no network), or not answered (the server failing): the link is tried again later.
    if (error instanceof Offline) return say(t("play.linkOffline"), LINK_SAID_MS);
    if (error instanceof Problem) return say(problemWords(error), LINK_SAID_MS);
    throw error;
  }
  leave();
}

const LINK_SAID_MS = 12_000; // what became of a seat's link: long enough to be read

/** The view `token` is answered with, or null when it is refused or the match unknown. */
async function seatOf(id, token) {
  try {
    return await api(`/matches/${id}`, { token });
  } catch (error) {
    if (error instanceof Problem && [401, 403, 404, 410].includes(error.status)) return null;
    throw error;
  }
}

/** A game's box, its words and its board: what its table is drawn with. */
const partsOf = (game) => Promise.all([boxOf(game).then(async (box) => {
  await wordsFor(box).catch(() => {});
  return box;
}), loadBoard(game)]);

async function load() {
  // A seat kept on this phone names its game: its parts are asked beside the view, not after it.
  const early = !match.box && match.held?.game ? partsOf(match.held.game).catch(() => null) : null;
  let view;
  try {
    view = await api(`/matches/${match.id}`, { token: token() });
  } catch (error) {
    if (error instanceof Problem && error.status === 401 && match.held?.token) {
      seatLost(); // the seat was given a new token elsewhere: watched from now on
      view = await api(`/matches/${match.id}`);
    } else throw error;
  }
  unplayed(view);
  // A seat taken from its link: its name and game kept with it, as for a seat joined here.
  if (match.held?.token && view.you != null && (!match.held.name || !match.held.game)) {
    match.held = { ...match.held, name: view.players[view.you]?.name, game: view.game };
    keepSeat(match.id, match.held);
  }
  if (!match.box || match.box.id !== view.game) {
    const parts = (await early)?.[0]?.id === view.game ? await early : await partsOf(view.game);
    [match.box] = parts;
    match.sheet = null;
  }
  await scoresheet(view);
  await rematchSeat(view);
  show(view);
  settle();
  awaitRematch();
  // A join or a leave sent, its answer not heard: sent again with its key (README)
  const unanswered = !token() && !match.joining && pendingBody(`/matches/${match.id}/join`);
  if (unanswered) join(unanswered.name, unanswered.seat ?? null);
  else if (token() && pendingWhere((p) => p === leavePath())) leaveSeat();
}

/** Draws the view this phone last drew, said to be out of date (README); whether it did. */
async function lastSeen() {
  const { view, entries = [] } = keptView(match.id) || {};
  if (!view || view.you !== (token() ? match.held.seat : null)) return false;
  try {
    [match.box] = await partsOf(view.game);
  } catch {
    return false; // the game's box never reached this phone
  }
  match.link = "lost";
  for (const entry of entries) match.entries.set(entry.seq, { ...entry, fresh: false });
  await scoresheet(view);
  show(view);
  return true;
}

/** Whether a bot plays this phone's seat in the rematch `view` names (the host gave it one):
 * then the rematch is offered to watch, not to join. Its seat is this one's rotated by one
 * (API.md "Listing and rematch"), read as a spectator; unread, the join is offered. */
async function rematchSeat(view) {
  if (view.status !== "finished" || !view.rematch || view.you == null || match.rematchBot?.id === view.rematch) return;
  const seats = view.players.length;
  const bot = await api(`/matches/${view.rematch}`)
    .then((v) => Boolean(v.players[(view.you - 1 + seats) % seats]?.bot), () => null);
  if (bot != null) match.rematchBot = { id: view.rematch, bot };
}

const botPlaysRematch = (view) => match.rematchBot?.id === view.rematch && match.rematchBot.bot;

/** The scoresheet, which words the breakdowns: loaded once `view` is over. */
async function scoresheet(view) {
  if (view.status === "finished" && !match.sheet) match.sheet = await sheetFor(match.box).catch(() => null);
}

// A finished match: a rematch looked for (README, "The play page"); `now`: back in sight.
const REMATCH_MS = 5000;
const REMATCH_LOOKS = 120;
let rematchTimer = 0;
let rematchLooks = 0;
function awaitRematch(now) {
  clearTimeout(rematchTimer);
  const { view } = match;
  if (view.status !== "finished" || view.rematch || !match.held?.token) return;
  rematchTimer = setTimeout(() => {
    if (document.visibilityState !== "visible") return awaitRematch();
    rematchLooks += 1;
    // read as a spectator: the seat is not shown at the table for a look
    api(`/matches/${match.id}`).then((v) => (v.rematch ? load() : awaitRematch()))
      .catch((e) => [404, 410].includes(e.status) || awaitRematch());
  }, now ? 0 : rematchLooks < REMATCH_LOOKS ? REMATCH_MS : 12 * REMATCH_MS);
}

/** This phone holds the seat no more: it forgets its token, and keeps the host's if it has it. */
function dropSeat() {
  const host = match.held?.host;
  match.held = host ? { game: match.held.game, host } : null;
  forgetSeat(match.id, true);
  forgetView(match.id); // the seat's own view: not this phone's to see any more
}

/** The seat's token stopped working (the host gave the seat a new one): the phone says so, keeps
 * the host's token if it holds one, and watches. */
function seatLost() {
  dropSeat();
  // a leave this phone sent, its answer not heard: the server took it (README, "The play page")
  if (unpendPath(leavePath())) return say(t("play.answeredRequest"));
  match.lost = true; // said on the table too, for as long as it is watched, a reload included
  rememberLost(match.id);
  say(t("play.seatLost"));
}

/** The match is gone (cancelled, or removed after a long while): nothing of it is kept. */
function gone(error) {
  clearTimeout(retry);
  clearInterval(clockTimer);
  clearInterval(presenceTimer);
  forgetSeat(match.id);
  forgetView(match.id);
  state("gone");
  failed(error);
}

function failed(error) {
  const missing = error instanceof Problem && [404, 410].includes(error.status);
  fill(main, h("section", { class: "card" },
    h("h2", { text: t(missing ? "play.gone" : "play.cannotLoad") }),
    h("p", { class: "muted", text: problemWords(error, "play.offline") }),
    h("p", {}, h("a", { href: "/play", text: t("play.back") }))));
}

/** Takes `view` as the table's, unless an older answer arrives after a newer one. */
function accept(view) {
  if (match.view && view.version < match.view.version) return false;
  match.view = view;
  keep();
  return true;
}

/** The table kept on the phone as it is now drawn: its view and its latest moves. */
const keep = () => keepView(match.id, match.view, [...match.entries.values()].sort((a, b) => b.seq - a.seq).slice(0, RECENT));

/** Draws `view`, unless it is on the screen already: what was scrolled to, or opened, stays. */
function show(view) {
  const same = match.view && JSON.stringify(view) === JSON.stringify(match.view);
  return accept(view) && !same && draw();
}

// --- the stream ---------------------------------------------------------------------------------

addEventListener("online", () => match?.link === "lost" && listen());
addEventListener("offline", () => controller?.abort());
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible" || !match?.view) return;
  if (!["live", "ended"].includes(match.link)) listen();
  awaitRematch(true);
});

let reloading = null;
/** The view read again, once for a burst of entries heard. */
function reload() {
  reloading ??= Promise.resolve().then(async () => {
    await new Promise((resolve) => setTimeout(resolve, 40));
    reloading = null;
    try {
      await load();
    } catch (error) {
      if (error instanceof Offline) state("lost");
    }
  });
  return reloading;
}

async function listen() {
  clearTimeout(retry);
  controller?.abort();
  const mine = (controller = new AbortController());
  // From its last id; the first time, from a few moves back, to show the latest moves (not
  // said: the moves the view opened on are the page's, read with it).
  const from = match.lastId ?? Math.max(0, match.view.version - 1 - RECENT);
  match.opened ??= match.view.version - 1;
  let quiet = 0;
  const awake = () => {
    clearTimeout(quiet);
    quiet = setTimeout(() => mine.abort(), QUIET_MS);
  };
  awake();
  try {
    await readStream(`/matches/${match.id}/events`, {
      token: token(), lastId: from, signal: mine.signal,
      onOpen: () => {
        tries = 0;
        state("live");
        // What was missed while the stream was down is sent again from the last id; the view too.
        if (match.lastId != null || match.unsure != null) reload();
      },
      heard: (message) => {
        awake();
        if (message.event === "entry" && message.data) heard(message.data);
      },
    });
    // The server ends a stream after a while (taken up again), and once the match is over (all
    // is said: the view is read once more, for the result).
    await reloading;
    if (mine !== controller) return;
    if (match.view.status === "finished") return state("ended");
    retry = setTimeout(listen, 250);
  } catch (error) {
    if (mine !== controller) return;
    if (error instanceof Problem && [404, 410].includes(error.status)) return gone(error);
    if (error instanceof Problem && error.status === 401 && match.held?.token) {
      seatLost();
      await reload();
    }
    state("lost");
    retry = setTimeout(listen, RETRY_MS[Math.min(tries, RETRY_MS.length - 1)]);
    tries += 1;
  } finally {
    clearTimeout(quiet);
  }
}

/** A log entry heard: kept once (by its seq) and, if the table moved on, the view read again. */
function heard(entry) {
  match.lastId = Math.max(match.lastId ?? 0, entry.seq);
  if (match.entries.has(entry.seq)) return;
  match.entries.set(entry.seq, { ...entry, fresh: true });
  settle();
  // Every move since the page opened, this seat's too: what a roll or a draw gave is known only
  // once it is told.
  if (match.view && entry.seq > match.opened) tell(describeEntry(entry, match.view, match.box));
  if (entry.version > (match.view?.version ?? 0)) reload();
  else {
    drawMoves();
    keep();
  }
}

/** A move whose answers were lost, and a view of the version it was sent at: nothing came
 * after it, so it was not played (README, "The play page"). */
function unplayed(view) {
  if (match.unsure?.at !== view.version) return;
  match.unsure = null;
  if (view.to_act.includes(view.you)) say(t("play.notPlayed"), ANSWER_SAID_MS);
}

let rechecking = 0;
/** A move whose answers were lost, the stream still open (its requests alone were lost): no
 * stream opening again reads the table, so it is read again, sooner then later, until an answer
 * says whether the move was played. */
function recheck(step = 0) {
  clearTimeout(rechecking);
  if (!match.unsure) return;
  // settled meanwhile (its entry heard, the stream opened again): no read
  rechecking = setTimeout(() => match.unsure && load().catch(() => recheck(step + 1)), RETRY_MS[Math.min(step, RETRY_MS.length - 1)]);
}

/** A move whose answers were lost: played or not, once the log below the view says (README). */
function settle() {
  const { view } = match;
  const { at, kind } = match.unsure ?? {};
  if (at == null || !view || view.version <= at) return;
  let ours = false;
  for (let seq = at; seq < view.version; seq++) {
    const entry = match.entries.get(seq);
    if (!entry) return; // not heard yet
    ours ||= entry.seat === view.you && !entry.bot && entry.action.type === kind; // not a stand-in's
  }
  match.unsure = null;
  say(t(ours ? "play.answered" : "play.notPlayedMoved"), ANSWER_SAID_MS);
}

let told = [];
let telling = 0;
/** Says the moves heard, to a screen reader: those heard together (a bot's turn of several
 * moves) at once, in order, when the stream pauses. */
function tell(words) {
  told.push(words);
  clearTimeout(telling);
  telling = setTimeout(() => {
    const el = byId("play-heard");
    if (el) el.textContent = told.slice(-6).join(". ");
    told = [];
  }, 400);
}

function state(now) {
  if (match.link === now) return;
  match.link = now;
  const line = byId("play-link");
  if (line) line.textContent = linkWords();
}

const linkWords = () => t({ connecting: "play.connecting", live: "play.live", lost: "play.lost", gone: "play.gone", ended: "play.ended" }[match.link]);

// --- acting -------------------------------------------------------------------------------------

/** Plays `action` at the version its button was drawn from (else 409, and read again). */
async function act(action, seen) {
  if (match.busy || !match.held) return;
  // No network on the phone: nothing is sent, and the words say so.
  if (!navigator.onLine) return say(t("play.notSent"));
  const keyed = main.contains(document.activeElement);
  match.busy = true;
  main.classList.add("busy");
  for (const b of main.querySelectorAll("button[data-act]")) b.disabled = true;
  try {
    // Sent again once if its answer is lost (send): played once either way.
    const view = await send(`/matches/${match.id}/actions`, { token: token(), body: { action, version: seen }, lost: "play.noAnswer", answered: "play.answered" });
    if (accept(view)) await scoresheet(view);
  } catch (error) {
    const moved = error instanceof Problem && error.body?.type === "/problems/stale-version";
    if (error instanceof Offline) {
      match.unsure = { at: seen, kind: action.type }; // its version, and what it was
      say(t("play.stillNoAnswer"), ANSWER_SAID_MS);
    } else if (error instanceof Problem && !moved) {
      say(problemWords(error));
    } else if (!moved) throw error;
    await load().catch(() => {});
    recheck();
    // the table moved on: if by the seat's time running out, the move was not played for that
    // (the player saw only "the table moved on")
    const { view } = match;
    if (moved) say(t(view.status !== "finished" && view.players?.[view.you]?.away ? "play.timedOutNotPlayed" : "play.movedOn"));
  } finally {
    match.busy = false;
    main.classList.remove("busy");
    draw();
    if (keyed) refocus();
    awaitRematch();
  }
}

/** After a move, the focus to the turn line, which says what is next: not to a move, which a
 * second Enter would send unasked (DIG's first move offered after a dog's step sends it back). */
function refocus() {
  const at = document.activeElement;
  if (at && at !== document.body && main.contains(at)) return;
  byId("play-turn")?.focus({ preventScroll: true });
}

/** Joins as `name` (in `seat`, if asked); nothing else offered meanwhile (README). */
async function join(name, seat) {
  const inside = main.contains(document.activeElement);
  match.joining = { name };
  draw();
  if (inside) byId("play-joining")?.focus();
  try {
    const answer = await send(`/matches/${match.id}/join`, { body: { name, ...(seat != null && { seat }) }, keep: true });
    match.joining = null;
    rememberName(name);
    match.held = { ...match.held, seat: answer.seat, token: answer.token, name: answer.name, game: match.view.game };
    keepSeat(match.id, match.held);
    history.replaceState(null, "", `/play/${match.id}`);
    match.wanted = null;
    show(answer.view);
    if (inside) refocus(); // the form is gone, and the focus with it
    listen(); // this seat's stream from now on
  } catch (error) {
    match.joining = null;
    const words = problemWords(error);
    say(words);
    // kept beside the name until it is changed: the line above is gone in a few seconds
    if (error instanceof Problem) match.joinRefused = { name, words };
    await load().catch(() => {});
    draw(); // the form again, whether or not the table changed
    if (inside) byId("play-join-name")?.focus(); // where the name is mended, its reason read with it
  }
}

async function rematch() {
  try {
    const answer = await send(`/matches/${match.id}/rematch`, { token: token() });
    // The rematch's host is the match's, with the same token: this phone stays its host.
    keepSeat(answer.id, { seat: answer.seat, token: answer.token, name: match.held.name, game: match.view.game,
      ...(match.held.host && { host: match.held.host }) });
    location.assign(`/play/${answer.id}`);
  } catch (error) {
    if (error instanceof Problem && error.body?.type === "/problems/seat-already-bot") {
      // the host gave the seat to a bot since this page read the rematch: offered to watch
      match.rematchBot = { id: match.view.rematch, bot: true };
      draw();
    }
    say(problemWords(error));
  }
}

async function leave() {
  if (!(await ask(t("play.leaveAsk", { bot: t("play.bot", { bot: item("bot", match.view.stand_in_bot) }) }), t("play.leave")))) return;
  try {
    await send(`/matches/${match.id}/leave`, { token: token() });
    await load();
  } catch (error) {
    say(problemWords(error));
  }
}

/** A seat left before the match began opens again: this phone watches, free to join again. */
async function leaveWaiting() {
  if (await ask(t("play.leaveWaitingAsk"), t("play.leaveWaiting"))) await leaveSeat();
}

const leavePath = () => `/matches/${match.id}/leave`;

/** Gives the seat up, sent again until answered (after a reload too), and watches. */
async function leaveSeat() {
  if (match.leaving) return;
  match.leaving = true;
  try {
    // null: the seat's stream told it first (seatLost)
    if (!(await send(leavePath(), { token: token(), body: { waiting: true }, keep: true }))) return;
  } catch (error) {
    // 401 to the leave sent again: the first one was taken (README, "The play page")
    if (!(error instanceof Problem && error.status === 401 && error.again)) {
      if (error instanceof Problem) unpendPath(leavePath());
      return say(error.status === 409 && error.body?.type?.endsWith("/stale-version") ? t("play.leaveBegun") : problemWords(error));
    }
    say(t("play.answeredRequest"));
  } finally {
    match.leaving = false;
  }
  unpendPath(leavePath()); // answered: one kept under an earlier token too
  dropSeat();
  await load().catch(() => {});
  listen(); // a spectator's stream from now on
}

/** The host calls off a match still waiting for players (it answers 410 from then on). */
async function cancel() {
  if (!(await ask(t("play.cancelAsk"), t("play.cancel")))) return;
  try {
    await send(`/matches/${match.id}`, { method: "DELETE", token: match.held.host });
  } catch (error) {
    // 410 to the DELETE sent again: the first one was taken (it is not answered again)
    if (!(error instanceof Problem && error.status === 410 && error.again)) return say(problemWords(error));
  }
  forgetSeat(match.id);
  try {
    sessionStorage.setItem(SAID, t("play.calledOff")); // said on the page it leads to
  } catch {
    // nowhere to keep it: the lobby shows the match no more all the same
  }
  location.assign("/play");
}

async function toBot(seat) {
  const player = match.view.players[seat];
  if (match.view.status !== "waiting" && !(await ask(t("play.toBotAsk", { name: player.name, bot: t("play.bot", { bot: item("bot", match.view.stand_in_bot) }) }), t("play.giveToBot")))) return;
  try {
    // an open seat is named in this page's language, as the setup names its bots
    const names = match.view.players.map((p) => p.name);
    const body = player.name == null ? { name: freeBotName(match.view.stand_in_bot, names) } : {};
    await send(`/matches/${match.id}/seats/${seat}/bot`, { token: match.held.host, body });
    // a link made for the seat gives its player a seat a bot plays now: a new one gives it back
    delete match.links?.[seat];
    delete match.qrs?.[seat];
    await load();
  } catch (error) {
    say(problemWords(error));
  }
}

/** A seat link's QR code, as an image address, or null (README, "The play page"). */
async function secretQr(link) {
  try {
    const answer = await fetch("/qr.svg", { method: "POST", cache: "no-store", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: link }) });
    return answer.ok ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await answer.text())}` : null;
  } catch {
    return null;
  }
}

/** The host gives a seat a new token: its link shown here, once (README). */
async function newLink(seat) {
  const { name } = match.view.players[seat];
  if (!(await ask(t("play.newLinkAsk", { name }), t("play.makeLink")))) return;
  try {
    const answer = await send(`/matches/${match.id}/seats/${seat}/token`, { token: match.held.host, body: {} });
    const link = `${location.origin}/play/${match.id}#seat=${seat}&token=${encodeURIComponent(answer.token)}`;
    match.links = { ...match.links, [seat]: link };
    match.qrs = { ...match.qrs, [seat]: await secretQr(link) };
    await load().catch(() => {});
    draw(); // the link, in a view that may be the same
  } catch (error) {
    say(problemWords(error));
  }
}

// --- drawing ------------------------------------------------------------------------------------

/** The actions of the view, placed once each: on the board where it has a place for one, under
 * it otherwise. */
function offers(view) {
  const left = new Set(view.legal_actions.map((_, i) => i));
  const idFor = (action) => `act-${Object.values(action).join("-")}`.replace(/[^\w-]/g, "-");
  return {
    left,
    take(test) {
      for (const index of left) {
        if (test(view.legal_actions[index])) {
          left.delete(index);
          return { index, action: view.legal_actions[index] };
        }
      }
      return null;
    },
    /** `hint`: what a tap does, said to a screen reader after what the place shows. */
    button(taken, { hint, ...attributes }, ...children) {
      if (!taken) return h("div", { ...attributes, class: `${attributes.class || ""} still` }, ...children);
      return h("button", {
        type: "button", ...attributes, class: `${attributes.class || ""} offered`, id: idFor(taken.action),
        "data-act": taken.index, "data-type": taken.action.type, disabled: match.busy,
        onclick: () => act(taken.action, view.version),
      }, ...children, hint && h("span", { class: "vh", text: ` · ${hint}` }));
    },
    idFor,
  };
}

const seatName = (view, seat) => view.players?.[seat]?.name || t("play.openSeat");

/** Whether the view offers the seat a move to play: undo alone is no move. */
const playable = (view) => view.legal_actions.some((a) => a.type !== "undo");

/** Sets an element's words only where they changed: a live region says them once. */
const setText = (el, text) => {
  if (el.textContent !== text) el.textContent = text;
};

/** The table's head, kept from view to view, its words changed in place (README); the body. */
function frame() {
  let head = byId("play-head");
  let body = byId("play-body");
  if (head?.parentNode !== main || body?.parentNode !== main) {
    head = h("section", { id: "play-head", class: "card intro table-head", "aria-labelledby": "play-game" },
      h("h2", { id: "play-game" }),
      h("p", { id: "play-turn", class: "turn", role: "status", tabindex: "-1" }),
      // the moves, as they are heard, for a player who cannot see the list
      h("p", { id: "play-heard", class: "vh", "aria-live": "polite" }),
      h("p", { class: "muted" }, h("span", { id: "play-link" }), h("span", { id: "play-seeded" })));
    body = h("div", { id: "play-body" });
    fill(main, head, body);
  }
  return [head, body];
}

/** The bot that played this seat's turn when its time last ran out (the match's stand-in, or
 * the cheap one while its thinking was spent). */
function lastStandIn(view) {
  const out = [...match.entries.values()].filter((e) => e.seat === view.you && e.action?.type === "time_out")
    .sort((a, b) => b.seq - a.seq)[0];
  return out?.events?.[0]?.bot ?? view.stand_in_bot;
}

function draw() {
  const { view, box } = match;
  const name = item("game", box.id, box.name);
  document.title = `${name} · ${t("play.title")}`;
  const you = view.you;
  const offer = offers(view);
  const mine = playable(view);
  const board = view.state && drawBoard(view, box, offer);
  const rest = [...offer.left].map((index) => ({ index, action: view.legal_actions[index] }));
  const undo = rest.find((r) => r.action.type === "undo");
  const buttons = rest.filter((r) => r !== undo).map((r) => offer.button(r, { class: "act primary" }, describeAction(r.action, view, box)));
  const boardCard = board && h("section", { class: `card board game-${view.game}`, "aria-label": t("play.board") }, board);
  const aside = mine && board && rest.length === view.legal_actions.length; // no move on the board
  // The board first and its moves on it: the one or two moves it has no place for (End turn)
  // kept at the foot of the screen, under the thumb, not below a board taller than the phone.
  const docked = mine && board && !aside && buttons.length > 0 && buttons.length <= 2;
  document.body.classList.toggle("docked", Boolean(docked));
  // Where the focus was, and the caret in a field being typed in: drawn anew, kept where it was.
  const { id: focused, selectionStart: start, selectionEnd: end } = document.activeElement || {};
  const y = scrollY;
  // What each place of the board showed, to flash those a move changed (the table's own version
  // drawn again, in another language say, changes none).
  const before = match.drawn === view.version ? null : spots();
  match.drawn = view.version;
  const [head, body] = frame();
  head.dataset.matchVersion = view.version;
  head.dataset.status = view.status;
  setText(byId("play-game"), [name, view.variant && view.variant !== "standard" ? item("variant", view.variant, box.variant_players?.[view.variant]?.name) : null].filter(Boolean).join(" · "));
  const turn = byId("play-turn");
  turn.classList.toggle("yours", mine);
  setText(turn, turnWords(view));
  setText(byId("play-link"), linkWords());
  setText(byId("play-seeded"), view.seeded ? ` · ${t("play.seeded")}` : "");
  fill(body,
    match.lost && view.you == null && h("p", { class: "card", id: "play-seat-lost", text: t("play.seatLostWatching") }),
    // a join not answered yet: the seat it took may show taken, by this very name
    match.joining ? view.you == null && h("p", { class: "card", id: "play-joining", tabindex: -1, text: t("play.joining", match.joining) }) : seatTaken(view),
    view.status === "finished" && ending(view),
    seatsList(view),
    view.status === "waiting" && waiting(view),
    // a choice the board has no place for (whom a Thief robs) first, under the turn line
    !aside && boardCard,
    view.status !== "waiting" && view.status !== "finished" && you != null && h("section", { class: "card moves-panel", "aria-labelledby": "play-yours" },
      h("h2", { id: "play-yours", text: mine ? t("play.yourMove") : t("play.notYourMove") }),
      mine && board && offer.left.size < view.legal_actions.length && h("p", { class: "muted", text: t("play.tapHighlighted") }),
      view.players[you]?.away && !view.players[you].bot && h("p", { id: "play-you-away", class: "warn", text: t("play.youTimedOut", { bot: item("bot", lastStandIn(view)) }) }),
      view.players[you]?.bot && h("p", { id: "play-you-bot", class: "warn", text: t("play.youBot", { bot: item("bot", view.players[you].bot) }) }),
      !mine && undo && h("p", { class: "muted", id: "play-undo-still", text: t("play.undoStill") }),
      h("div", { class: docked ? "acts dock" : "acts" }, buttons),
      undo && h("p", {}, offer.button(undo, { class: "act undo quiet" }, `↶ ${t("play.undo")}`)),
      view.status !== "finished" && !view.players?.[you]?.bot && h("p", {}, h("button", { type: "button", class: "quiet small", onclick: leave, text: t("play.leave") }))),
    aside && boardCard,
    hosting(view),
    h("section", { class: "card", "aria-labelledby": "play-moves" },
      h("h2", { id: "play-moves", text: t("play.moves") }),
      h("ol", { id: "play-recent", class: "recent", reversed: true }),
      h("p", { id: "play-no-moves", class: "muted", text: t("play.noMoves") }),
      // the replay shows the board move by move once the match is over: offered then
      h("p", {}, view.status === "finished" && [h("a", { href: `/play/${match.id}/replay`, text: t("play.replayLink") }), " · "], h("a", { href: "/play", text: t("play.back") }))));
  drawMoves();
  if (before?.size) {
    for (const [spot, el] of spots(true)) if (before.has(spot) && before.get(spot) !== el.textContent) el.classList.add("changed");
  }
  fill(byId(ids.action), h("a", { class: "new", href: "/play", text: t("play.newMatch") }));
  const again = focused && byId(focused);
  if (again && document.activeElement !== again) {
    again.focus({ preventScroll: true });
    if (start != null) again.setSelectionRange?.(start, end);
  }
  scrollTo(0, y);
  tickClocks();
}

/** The host's part once the match has begun (README, "The play page"). */
function hosting(view) {
  if (!match.held?.host || !["setup", "playing"].includes(view.status)) return null;
  const people = view.players.filter((p) => p.seat !== view.you && p.name != null && (!p.bot || p.away));
  if (!people.length) return null;
  return h("section", { class: "card hosting", "aria-labelledby": "play-hosting" },
    h("h2", { id: "play-hosting", text: t("play.hostSeats") }),
    h("p", { class: "muted", text: t("play.hostHint") }),
    hostLink(),
    h("ul", { class: "links" }, people.map((p) => {
      const link = match.links?.[p.seat];
      return h("li", {},
        h("p", {}, h("b", { text: p.name }), p.away ? h("span", { class: "muted", text: ` · ${awayWords(p)}` }) : null),
        link && h("p", { id: `play-new-link-${p.seat}`, text: t("play.newLinkFor", { name: p.name }) }),
        link && h("p", {}, h("a", { href: link, class: "seat-link", "aria-label": t("play.newLinkOf", { name: p.name }), text: link })),
        link && match.qrs?.[p.seat] && h("img", { class: "qr", src: match.qrs[p.seat], width: 160, height: 160, alt: t("play.qrOfName", { name: p.name }) }),
        h("p", { class: "acts" },
          link && h("button", { type: "button", class: "quiet", onclick: () => share(link), ...whose(shareWord(), p.name) }),
          h("button", { type: "button", class: "quiet", onclick: () => newLink(p.seat), text: t("play.newLinkButton", { name: p.name }) }),
          !p.bot && h("button", { type: "button", class: "quiet", onclick: () => toBot(p.seat), text: t("play.toBotButton", { name: p.name }) })));
    })));
}

/** The board's places by their spot: what each shows, or (`elements`) the places themselves. */
const spots = (elements = false) => new Map([...main.querySelectorAll("[data-spot]")]
  .map((el) => [el.dataset.spot, elements ? el : el.textContent]));

function turnWords(view) {
  if (view.status === "waiting") return t("play.waitingFor", { n: view.players.filter((p) => p.name == null).length });
  if (view.status === "finished") return view.result?.winners?.length ? t("play.finishedWon", { names: view.result.winners.join(", ") }) : t("play.finished");
  if (playable(view)) return t("play.yourTurn");
  // a rematch waits for a player who has not claimed it (who may not know of it): said so, and
  // to the host, what else would go on
  const absent = view.to_act.filter((s) => view.players[s]?.unclaimed).map((s) => seatName(view, s)).join(", ");
  if (absent) return t(match.held?.host ? "play.notJoinedHost" : "play.notJoined", { names: absent });
  const names = view.to_act.map((s) => seatName(view, s)).join(", ");
  return names ? t("play.toAct", { names }) : "";
}

function seatsList(view) {
  return h("ul", { class: "card seats", "aria-label": t("play.seats") }, view.players.map((p) => h("li", {
    class: [view.to_act.includes(p.seat) && "acting", p.seat === view.you && "me"].filter(Boolean).join(" "),
  },
  h("span", { class: `mark s${p.seat}`, "aria-hidden": "true" }),
  h("b", { text: p.name ?? t("play.openSeat") }),
  p.seat === view.you && h("span", { class: "tag", text: t("play.you") }),
  botTag(p),
  p.away && view.status !== "finished" && h("span", { class: "tag bot", text: awayWords(p) }),
  p.unclaimed && view.status !== "finished" ? h("span", { class: "tag", text: t("play.notJoinedTag") })
    : p.name != null && p.seat !== view.you && !p.bot && view.status !== "finished" && h("span", { "data-presence": p.seat, ...presence(p) }),
  view.to_act.includes(p.seat) && view.status !== "finished" && h("span", { class: "tag now", text: t("play.acting") }),
  clockOf(view, p.seat))));
}

function clockOf(view, seat) {
  const { clock } = view;
  if (!clock || !["setup", "playing"].includes(view.status)) return null;
  const bank = clock.bank?.[seat] ?? clock.bank?.[String(seat)];
  // a rematch's seat not claimed yet: its clock waits for its player, whatever the others'
  const acting = view.to_act.includes(seat) && clock.deadline && !clock.waiting?.includes(seat);
  if (!acting && bank == null) return null;
  // a timer, whose name a screen reader says (a bare span's aria-label it does not)
  return h("span", { class: "clock", role: "timer", "data-deadline": acting ? clock.deadline : null, "aria-label": t("play.timeLeft"), text: acting ? "" : seconds(bank) });
}

/** Time left: "4:05", "1:04:05" from an hour, "1 day 12 h" from a day. */
const seconds = (s) => {
  // never more than is left: "1 day 12 h" with a day and a half to go (it read "2 days")
  const n = Math.max(0, Math.floor(s));
  if (n >= 86400) return t("play.days", { n: Math.floor(n / 86400), hours: Math.floor(n / 3600) % 24 });
  const two = (k) => String(k).padStart(2, "0");
  return n >= 3600 ? `${Math.floor(n / 3600)}:${two(Math.floor(n / 60) % 60)}:${two(n % 60)}` : `${Math.floor(n / 60)}:${two(n % 60)}`;
};

function tickClocks() {
  clearInterval(clockTimer);
  const clocks = [...main.querySelectorAll(".clock[data-deadline]")];
  if (!clocks.length) return;
  const tick = () => {
    for (const el of clocks) el.textContent = seconds((Date.parse(el.dataset.deadline) - Date.now() - serverAhead) / 1000);
  };
  tick();
  clockTimer = setInterval(tick, 1000);
}

function drawMoves() {
  const list = byId("play-recent");
  if (!list || !match.view) return;
  const latest = [...match.entries.values()].sort((a, b) => b.seq - a.seq).slice(0, RECENT);
  // No move yet: said beside the list, not as its first move.
  list.hidden = !latest.length;
  const none = byId("play-no-moves");
  if (none) none.hidden = latest.length > 0;
  const back = takenBack(match.entries.values());
  fill(list, latest.map((entry) => {
    const li = entryItem(entry, match.view, match.box, back, entry.fresh);
    entry.fresh = false;
    return li;
  }));
}

/** A seat's link opened where that seat is taken (by another phone, or a bot): said, rather than
 * the table shown as if nothing had been asked. */
function seatTaken(view) {
  const asked = view.players.find((p) => p.seat === match.wanted);
  if (view.you != null || match.lost || !asked || asked.name == null) return null;
  const open = view.status === "waiting" && !match.held?.token && view.players.some((p) => p.name == null);
  // drawn again with every view, as the seat-lost card is: no live region to say it each time
  return h("p", { class: "card", id: "play-seat-taken", text: t(open ? "play.seatTakenJoin" : "play.seatTaken", { n: asked.seat + 1 }) });
}

// --- waiting for players ------------------------------------------------------------------------

function waiting(view) {
  const open = view.players.filter((p) => p.name == null);
  const joinable = !match.held?.token && !match.joining && open.length > 0;
  const wanted = open.find((p) => p.seat === match.wanted) ? match.wanted : null;
  return h("section", { class: "card invite", "aria-labelledby": "play-invite" },
    h("h2", { id: "play-invite", text: joinable ? t("play.joinTitle") : t("play.inviteTitle") }),
    // what a player joins: a clock once the match begins (a bot takes a turn whose time runs out)
    h("p", { id: "play-terms", text: terms(view.variant, view.clock?.rule, match.box) }),
    joinable && joinForm(wanted),
    !joinable && h("p", { class: "muted", text: t("play.inviteHint") }),
    h("ul", { class: "links" }, open.map((p) => {
      const link = `${location.origin}/play/${match.id}?seat=${p.seat}`;
      const seatN = t("play.seatN", { n: p.seat + 1 });
      return h("li", {},
        h("p", {}, h("b", { text: seatN }), " · ", h("a", { href: link, class: "seat-link", text: link })),
        h("img", { class: "qr", src: `/qr.svg?text=${encodeURIComponent(link)}`, width: 160, height: 160, alt: t("play.qrOf", { n: p.seat + 1 }) }),
        h("p", { class: "acts" },
          h("button", { type: "button", class: "quiet", onclick: () => share(link), ...whose(shareWord(), seatN) }),
          match.held?.host && h("button", { type: "button", class: "quiet", onclick: () => toBot(p.seat), ...whose(t("play.giveToBot"), seatN) })));
    })),
    match.held?.token && h("p", {}, h("button", { type: "button", class: "quiet small", onclick: leaveWaiting, text: t("play.leaveWaiting") })),
    hostLink(),
    match.held?.host && h("p", {}, h("button", { type: "button", class: "quiet small", onclick: cancel, text: t("play.cancel") })));
}

/** The host's own link, to keep: it hosts the match from another phone, should this one lose it. */
const hostLink = () => match.held?.host && h("p", {}, t("play.hostLinkNote"), " ",
  h("button", { type: "button", class: "quiet", onclick: () => share(`${location.origin}/play/${match.id}#host=${match.held.host}`), ...whose(shareWord(), t("play.hostLink")) }));

const shareWord = () => (navigator.share ? t("play.share") : t("play.copy"));
/** A button's words, and its name for a screen reader with the seat it acts on: a list of seats
 * read "Copy link", "Copy link"… and not whose. */
const whose = (text, seat) => ({ text, "aria-label": `${text}: ${seat}` });

/** The form to join a seat; the name typed stays in it when the table is drawn again, and why
 * a join under it was refused, until it is changed. */
function joinForm(wanted) {
  const value = match.typed ?? lastName();
  const refused = match.joinRefused?.name === value.trim() ? match.joinRefused.words : "";
  const msg = h("p", { id: "play-join-msg", class: "msg", text: refused });
  const field = h("input", {
    id: "play-join-name", name: "name", autocomplete: "nickname", maxlength: 40, required: true, value,
    ...(refused && { "aria-invalid": "true", "aria-describedby": "play-join-msg" }),
    oninput: () => {
      match.typed = field.value;
      match.joinRefused = null;
      msg.textContent = "";
      field.removeAttribute("aria-invalid");
    },
  });
  return h("form", {
    class: "join", onsubmit: (event) => {
      event.preventDefault();
      const name = field.value.trim();
      if (name) join(name, wanted);
    },
  },
  h("label", { for: "play-join-name", text: t("play.yourName") }), field, msg,
  h("button", { class: "primary", text: wanted == null ? t("play.join") : t("play.joinSeat", { n: wanted + 1 }) }));
}

async function share(link) {
  try {
    if (navigator.share) await navigator.share({ url: link, title: t("play.title") });
    else {
      await navigator.clipboard.writeText(link);
      say(t("play.copied"));
    }
  } catch {
    // the player closed the share sheet
  }
}

// --- the end ------------------------------------------------------------------------------------

/** What the calculator needs of a seat for its breakdown in the game's words (the scorer's): the
 * game's own part says, where the seat's name is not enough. */
function sheetPlayer(view, i) {
  const p = view.state?.players?.[i] || {};
  return gamePart(view.game)?.sheetPlayer?.(p) ?? { name: p.name };
}

function flat(parts, prefix = "") {
  return Object.entries(parts).flatMap(([key, value]) => {
    const name = `${prefix}${t(`part.${key}`).startsWith("part.") ? key.replaceAll("_", " ") : t(`part.${key}`)}`;
    if (value && typeof value === "object" && !Array.isArray(value)) return flat(value, `${name} · `);
    if (Array.isArray(value)) return [[name, value.map((v) => (typeof v === "object" ? Object.values(v).join(" ") : v)).join(", ") || t("none")]];
    return [[name, typeof value === "number" ? minus(value) : String(value)]];
  });
}

function lines(view, parts, i) {
  const { sheet, box } = match;
  try {
    const request = { variant: view.variant, players: view.result.players.map((_, j) => sheetPlayer(view, j)) };
    if (sheet?.breakdown) return sheet.breakdown(box, parts, request.players[i], request);
  } catch {
    // the game's own words need what this view does not show: its parts as they are named
  }
  return flat(parts);
}

/** How the tie-break ranked equal totals, as the scorer's page says it. */
function tieLine(view) {
  const { sheet, box } = match;
  const words = tieWords(view.game, view.result, sheet?.tieFigures && ((parts) => sheet.tieFigures(box, parts)));
  return words && h("p", { class: "tie", id: "play-tie", text: words });
}

function ending(view) {
  const { result } = view;
  const { currency } = match.box;
  const ranked = result ? [...result.players].map((p, i) => ({ ...p, i })).sort((a, b) => a.rank - b.rank) : [];
  const shared = result?.winners.length > 1;
  return h("section", { class: "card ending", "aria-labelledby": "play-result" },
    h("h2", { id: "play-result", text: t("play.result") }),
    result && h("ol", { class: "ranking" }, ranked.map((p) => h("li", { class: result.winners.includes(p.name) ? "won" : null },
      h("span", { class: "pos", text: t("ordinal", { n: p.rank }) }),
      h("span", { class: "who", text: p.name }),
      h("span", { class: "pts", text: amount(p.total, currency) }),
      result.winners.includes(p.name) ? h("span", { class: "badge", text: t(shared ? "sharedWinBadge" : "winnerBadge") }) : null))),
    result && tieLine(view),
    result && ranked.map((p) => h("details", {
      class: "breakdown", open: !match.folded.has(p.name),
      ontoggle: (e) => (e.target.open ? match.folded.delete(p.name) : match.folded.add(p.name)),
    },
      h("summary", { text: `${p.name} · ${amount(p.total, currency)}` }),
      h("dl", {}, lines(view, p.breakdown, p.i).map(([term, amount]) => h("div", {}, h("dt", { text: term }), h("dd", { text: amount })))))),
    match.held?.token && botPlaysRematch(view) && h("p", { class: "muted", id: "play-rematch-bot", text: t("play.rematchBot") }),
    h("div", { class: "acts" },
      match.held?.token && (botPlaysRematch(view)
        ? h("a", { class: "button primary", id: "play-rematch", href: `/play/${view.rematch}`, text: t("play.watchRematch") })
        : h("button", { type: "button", class: "primary", id: "play-rematch", onclick: rematch, text: view.rematch ? t("play.joinRematch") : t("play.rematch") })),
      h("a", { class: "button quiet", href: `/play/${match.id}/replay`, text: t("play.replay") }),
      h("button", { type: "button", class: "quiet", onclick: () => share(`${location.origin}/play/${match.id}/replay`), text: navigator.share ? t("play.shareReplay") : t("play.copyReplay") })));
}

/** Drawn again in the language now in use. */
export const relanguage = () => match?.view && draw();
