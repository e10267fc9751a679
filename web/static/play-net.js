// Playing talks to the match API (shared/API.md "Matches") and nothing else: a seat's calls carry
// its token; the seats this phone holds are kept on it (localStorage), so a reload, a locked phone
// or a dropped network finds its seat again. Requests go as the scorer's do (http.js); the
// scorer's net.js is not used: on a page no service worker keeps, it loads the rest of the scorer.
import { say, uid } from "./dom.js";
import { Offline, Problem, reach, request } from "./http.js";
import { item, language, t } from "./i18n.js";
import * as store from "./store.js";

export const API = "/api/v1";
const SEATS = "play.seats"; // match id → { seat, token, name, game, host, at, status, turn }
const LOST = "play.lost"; // the matches whose seat this phone lost to a new link, latest first
const KEEP = 30;
// Requests whose answer holds a token (a join, a match made), kept until answered: what they ask
// → { path, body, key, at }. The server answers a key again for 24 hours (service/idempotency.py
// KEEP_HOURS).
const PENDING = "play.pending";
const PENDING_MS = 23 * 3600_000;
const pendingAll = () => Object.fromEntries(Object.entries(store.cached(PENDING) || {}).filter(([, p]) => Date.now() - p.at < PENDING_MS));
const unpend = (asked) => {
  const all = pendingAll();
  delete all[asked];
  store.remember(PENDING, all);
};

/** A request sent with `keep` and not answered yet on this phone, whose path passes `test`:
 * { path, body }, else null. */
export const pendingWhere = (test) => Object.values(pendingAll()).find((p) => test(p.path)) ?? null;
/** Forgets the requests to `path` not answered yet: whether there was one. */
export function unpendPath(path) {
  const all = pendingAll(), asked = Object.keys(all).filter((k) => all[k].path === path);
  for (const k of asked) delete all[k];
  return asked.length > 0 && store.remember(PENDING, all);
}
/** The body of such a request to `path`, else null. */
export const pendingBody = (path) => pendingWhere((other) => other === path)?.body ?? null;

export { Offline, Problem };

/** What went wrong, in the page's language: the server's own words in English (they name the
 * player, the seat, the version…); in another language the page's words for the problem's kind
 * (its type), the server's where the page has none. No network: `offline`'s words; no answer to a
 * request sent twice (send): that whether it was done is not known. */
export function problemWords(error, offline = "play.notSent") {
  if (error instanceof Offline) return t(error.again ? "play.stillNoAnswerRequest" : offline);
  if (!(error instanceof Problem)) return error.message;
  // a kind's own reason first, where the answer gives one (a gone match's: cancelled, idle…)
  const kind = `problem.${String(error.body?.type || "").split("/").pop()}`;
  const key = [error.body?.reason && `${kind}.${error.body.reason}`, kind].find((k) => k && t(k) !== k);
  return language === "en" || !key ? error.message : t(key);
}

/** How far the server's clock is ahead of the phone's, in ms, as its last answer's Date said:
 * a phone set wrong counts a turn's time left as the server does. Within 2 s it is taken to be
 * none, a Date being in whole seconds. */
export let serverAhead = 0;

function seen(response) {
  const date = Date.parse(response.headers.get("Date") || "");
  if (Number.isNaN(date)) return;
  const ahead = date + 500 - Date.now();
  serverAhead = Math.abs(ahead) > 2000 ? ahead : 0;
}

/** A call to the API with a seat's token: the answer's body, or a Problem (its problem+json). */
export const api = (path, { token, method = "GET", body, signal, headers = {} } = {}) => request(`${API}${path}`, {
  method, signal, cache: "no-store", seen,
  headers: {
    ...headers,
    ...(token && { Authorization: `Bearer ${token}` }),
    ...(body !== undefined && { "Content-Type": "application/json" }),
  },
  body: body === undefined ? undefined : JSON.stringify(body),
});

export const ANSWER_SAID_MS = 12_000; // what became of a request whose answer was lost: long enough to be read

const sending = new Map(); // the requests being sent, by what they ask: a second tap waits for the first

/** Sends a change (a POST of `body` to `path`, or `method`) with an Idempotency-Key, one for each
 * thing the player asked for: sent again, with the same key, when its answer is lost (`lost`
 * said, then `answered`), once, or until answered with `keep`; README, "The play page". No network
 * on the phone: Offline, nothing sent. A failure once sent again carries `again`. */
export function send(path, { method = "POST", token, body, lost = "play.noAnswerRequest", answered = "play.answeredRequest", keep = false } = {}) {
  const asked = JSON.stringify([method, path, token, body]);
  if (!sending.has(asked)) {
    sending.set(asked, sendOnce(path, { method, token, body, lost, answered, keep, asked }).finally(() => sending.delete(asked)));
  }
  return sending.get(asked);
}

async function sendOnce(path, { method, token, body, lost, answered, keep, asked }) {
  if (!navigator.onLine) throw new Offline("offline");
  const kept = keep && pendingAll()[asked];
  const key = kept?.key || crypto.randomUUID?.() || uid("request-");
  if (keep && !kept) store.remember(PENDING, { ...pendingAll(), [asked]: { path, body, key, at: Date.now() } });
  let again = Boolean(kept);
  let wait = 1;
  for (;;) {
    if (keep && again && !store.cached(PENDING)?.[asked]) return null; // known done meanwhile (unpendPath)
    try {
      const answer = await api(path, { method, token, body, headers: { "Idempotency-Key": key } });
      if (keep) unpend(asked);
      if (again) say(t(answered));
      return answer;
    } catch (error) {
      const held = error instanceof Problem && error.body?.type?.endsWith("/idempotency-key-in-use");
      const unanswered = error instanceof Offline;
      if (keep && !held && !unanswered) unpend(asked); // answered: done, or refused for good
      if (!held && !(unanswered && keep) && (again || !unanswered)) throw Object.assign(error, { again });
      if (!held) say(t(lost), ANSWER_SAID_MS);
      again = true;
      await backOnline(Number(error.after) || wait);
      if (keep) wait = Math.min(30, wait * 2);
    }
  }
}

/** Settles once the phone has its network again, and `s` seconds have passed. */
async function backOnline(s) {
  await new Promise((resolve) => setTimeout(resolve, s * 1000));
  if (!navigator.onLine) await new Promise((resolve) => addEventListener("online", resolve, { once: true }));
}

/** The seats this phone holds, by match id. */
export const seats = () => store.cached(SEATS) || {};
export const seatIn = (id) => seats()[id] || null;

/** Keeps the seat `held` (its token) for match `id`; the latest kept first, a few dozen at most. */
export function keepSeat(id, held) {
  if (held.token && lost(id)) store.remember(LOST, lostSeats().filter((other) => other !== id));
  const all = seats();
  all[id] = { ...all[id], ...held, at: Date.now() };
  const latest = Object.entries(all).sort(([, a], [, b]) => (b.at || 0) - (a.at || 0)).slice(0, KEEP);
  return store.remember(SEATS, Object.fromEntries(latest));
}

/** Forgets what this phone held of match `id`: all of it (the match is gone), or only the seat
 * (`keepHost`: its token stopped working, the host's may not have). */
export function forgetSeat(id, keepHost = false) {
  const all = seats();
  if (!all[id]) return true;
  if (keepHost && all[id].host) all[id] = { game: all[id].game, host: all[id].host, at: all[id].at };
  else delete all[id];
  return store.remember(SEATS, all);
}

/** The table as this phone last saw it: one match's view, the latest drawn, and the moves it had
 * heard, so that the page opened again with no network (a reload at a table whose Wi-Fi dropped)
 * draws them, said to be out of date, rather than nothing. Only what this phone was shown: its own
 * seat's view. */
const LAST_VIEW = "play.lastView";
export const keepView = (id, view, entries) => noteStatus(id, view) && store.remember(LAST_VIEW, { id, view, entries });

/** Notes what match `id` is doing (its view's status, and whether `seat` is to play) for the
 * list of this phone's matches; true. */
export function noteStatus(id, view, seat = view.you) {
  const all = seats(), held = all[id], turn = seat != null && view.to_act.includes(seat);
  if (held && (held.status !== view.status || held.turn !== turn)) store.remember(SEATS, { ...all, [id]: { ...held, status: view.status, turn } });
  return true;
}
export const keptView = (id) => {
  const kept = store.cached(LAST_VIEW);
  return kept?.id === id && kept.view ? kept : null;
};
export const forgetView = (id) => keptView(id) && store.remember(LAST_VIEW, null);

/** The matches whose seat this phone held until the host gave it a new link: it watches them, and
 * says why after a reload too. */
const lostSeats = () => store.cached(LOST) || [];
export const lost = (id) => lostSeats().includes(id);
export const rememberLost = (id) => store.remember(LOST, [id, ...lostSeats().filter((other) => other !== id)].slice(0, KEEP));

/** A bot's name at the table, in the page's language: its kind, numbered from the second of a
 * kind ("Greedy bot", "Greedy bot 2"; 욕심쟁이 봇 2), as the server names one given a seat with
 * no name. */
export const botName = (bot, n = 1) => t("play.botName", { bot: item("bot", bot), n });

/** The first name of a bot of this kind that is nobody's at the table. */
export function freeBotName(bot, names) {
  for (let n = 1; ; n++) if (!names.includes(botName(bot, n))) return botName(bot, n);
}

export const lastName = () => store.cached("play.name") || store.names()[0] || "";
export const rememberName = (name) => {
  store.remember("play.name", name);
  store.rememberName(name);
};

/** The game's box (name, bots, variants, components), with the last copy when offline. */
export async function box(game) {
  try {
    const answer = await api(`/games/${game}`);
    store.remember(`box.${game}`, answer);
    return answer;
  } catch (error) {
    const kept = store.keptBox(game);
    if (kept) return kept;
    throw error;
  }
}

/** Reads a Server-Sent Events stream with `fetch` (EventSource cannot send a seat's token):
 * `heard({ id, event, data })` for each event. Settles when the stream ends; throws if it cannot
 * be opened or drops. */
export async function readStream(path, { token, lastId, signal, onOpen, heard }) {
  const response = await reach(`${API}${path}`, {
    signal, cache: "no-store",
    headers: {
      Accept: "text/event-stream",
      ...(token && { Authorization: `Bearer ${token}` }),
      ...(lastId != null && { "Last-Event-ID": String(lastId) }),
    },
  });
  if (!response.ok) throw new Problem(response.status, await response.json().catch(() => ({})));
  onOpen?.();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer = (buffer + value).replace(/\r\n?/g, "\n");
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = { data: [] };
      for (const line of block.split("\n")) {
        if (!line || line.startsWith(":")) continue; // a comment: the server keeping the line open
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (name === "data") fields.data.push(text);
        else fields[name] = text;
      }
      if (fields.data.length) heard({ id: fields.id, event: fields.event, data: JSON.parse(fields.data.join("\n")) });
      else heard({ id: fields.id, event: fields.event, data: null });
    }
  }
}

/** A match's variant (where its `game`, a catalogue entry or box, has several) and its clock's
 * `rule`, in words: what a player joins, on the lobby and the join page. */
export const terms = (variant, rule, game) => [
  game?.variants?.length > 1 && item("variant", variant, game.variant_players?.[variant]?.name ?? variant),
  rule ? t("play.clockOf", rule) : t("play.noClock")].filter(Boolean).join(" · ");
