// A live shared tally on the phone that enters: README "A live shared tally".
import { byId, h, ids, say } from "./dom.js";
import { t } from "./i18n.js";
import { GAMES } from "./net.js";
import * as store from "./store.js";

// Each tally's share, by its id here: { of, game, id (the server's), token, sent, last }.
const KEPT = "shares";
const EARLIER = "live"; // the one share an earlier page kept, { of, … }
const MOST_SHARES = 20; // the newest kept: a phone does not share tallies it no longer holds
// The shares to end on the server still, { id, token } (home.js loads this file to end them).
const STOPPING = "shares.stopping";
const DEBOUNCE_MS = 300;
const HEARD_MS = 20_000;
const RETRY_MS = 3000;
const RETRY_MOST_MS = 12_000;
const OFFLINE_STATUS = new Set([502, 503, 504]); // a proxy answering for a server that is down
const ID = "live";

// Its own styles, loaded with it rather than with the first page.
document.head.append(h("link", { rel: "stylesheet", href: new URL("./live.css", import.meta.url).href }));

let entered = null; // the tally on the screen and the request its counts make: { tally, request }
let unkept = null; // the shares, where the phone refuses to store them
let unstopped = null; // the shares to end, where the phone refuses to store them
let stopTimer = 0;
let stopping = false; // the shares to end are being sent ("again": more were kept meanwhile)
let stopTries = 0; // tries in a row that found no server to end them
let timer = 0;
let sending = false; // a request to the server is on its way
let tries = 0; // tries in a row that found no server
let state = "idle"; // "idle", "starting", "sent", "sending", "offline"
let linkOpen = false; // the link and QR code unfolded

/** This phone's shares, by tally, as kept: every tab sees the same. */
function shares() {
  const kept = unkept ?? store.cached(KEPT);
  if (kept) return kept;
  const earlier = store.cached(EARLIER);
  return earlier?.of ? { [earlier.of]: earlier } : {};
}
/** Keeps the share of the tally `of` (null: forgets it); ends those past MOST_SHARES. */
function keep(of, value) {
  const all = Object.entries({ ...shares() }).filter(([id]) => id !== of);
  if (value) all.push([of, value]); // the newest last
  const dropped = all.slice(0, -MOST_SHARES).map(([, share]) => share);
  const kept = Object.fromEntries(all.slice(-MOST_SHARES));
  unkept = store.remember(KEPT, kept) ? null : kept;
  end(...dropped);
}

/** The wait before the next try, after `tried` found no server (never before `after` s). */
const retryIn = (tried, after) => Math.max(Math.min(RETRY_MS * 2 ** tried, RETRY_MOST_MS), after * 1000);

const toEnd = () => unstopped ?? store.cached(STOPPING) ?? [];
function keepToEnd(shares) {
  unstopped = store.remember(STOPPING, shares) ? null : shares;
}

/** Ends `shares` on the server: kept on the phone first, sent now or once it answers. */
function end(...shares) {
  const known = new Set(toEnd().map((share) => share.id));
  const added = shares.filter((share) => share && !known.has(share.id)).map(({ id, token }) => ({ id, token }));
  if (added.length) keepToEnd([...toEnd(), ...added]);
  endKept();
}

export async function endKept() {
  const deleted = toEnd().filter((kept) => kept.of);
  if (deleted.length) {
    keepToEnd(toEnd().filter((kept) => !kept.of));
    for (const { of } of deleted) unshare(of);
  }
  clearTimeout(stopTimer);
  if (stopping) {
    stopping = "again"; // more to end, kept while the others were on their way
    return;
  }
  stopping = true;
  let retry = -1;
  for (const share of toEnd()) {
    const answer = await call("DELETE", `/api/v1/tallies/${share.id}`, undefined, share.token);
    if (answer.failed === "offline" || answer.failed === 429) retry = Math.max(retry, answer.retry);
    // Ended, or nothing left to end (removed already, or not this token's): done with.
    else keepToEnd(toEnd().filter((kept) => kept.id !== share.id));
  }
  const again = stopping === "again";
  stopping = false;
  if (retry < 0) {
    stopTries = 0;
    if (again) endKept();
    return;
  }
  stopTimer = setTimeout(endKept, retryIn(stopTries++, retry));
}

/** Ends the share of the tally `of`, if it has one: stopped, or its tally deleted. */
export function unshare(of) {
  const share = shares()[of];
  if (share) keep(of, null);
  end(share);
}

const mine = () => (entered && shares()[entered.tally.id]) || null;
export const followLink = (id) => `${location.origin}/follow/${id}`;

/** One request to the API: its JSON answer, or `{ failed, retry }` when refused or unreachable:
 * `failed` the status, or "offline"; `retry` the seconds the server asks to wait, else 0. */
async function call(method, url, body, token, version) {
  let response;
  try {
    response = await fetch(url, {
      method, body: JSON.stringify(body),
      headers: { Accept: "application/json", "Content-Type": "application/json", ...(token && { Authorization: `Bearer ${token}` }), ...(version && { "If-Match": `"${version}"` }) },
    });
  } catch {
    return { failed: "offline", retry: 0 };
  }
  const retry = Number(response.headers.get("Retry-After")) || 0;
  if (OFFLINE_STATUS.has(response.status)) return { failed: "offline", retry };
  if (response.status === 204) return {};
  // a success cut off on its way (or no JSON) is no answer: the share is tried again as when offline
  if (response.ok) return response.json().catch(() => ({ failed: "offline", retry }));
  return { failed: response.status, retry };
}

/** A share's counts (`body`, as kept) sent to the server, at `version` if given; counts the box
 * cannot hold, as none, so nobody reads old totals as final. */
async function put(kept, body, version) {
  const url = `${GAMES}/${kept.game}/tallies/${kept.id}`;
  const answer = await call("PUT", url, JSON.parse(body), kept.token, version);
  return answer.failed === 422 ? call("PUT", url, { sheet: null }, kept.token, version) : answer;
}

addEventListener("tally-entered", ({ detail }) => {
  if (entered?.tally.id !== detail.tally.id) { // another tally: what was said of the last one's share is not this one's
    state = "idle";
  }
  entered = detail;
  // the counts to send, kept with the share: sent whichever tally is on the screen by then
  const kept = mine();
  if (kept) keep(detail.tally.id, { ...kept, last: JSON.stringify({ sheet: detail.request }) });
  draw();
  if (kept) {
    clearTimeout(timer);
    timer = setTimeout(send, DEBOUNCE_MS);
  }
});
const again = () => {
  tries = stopTries = 0; // the network is back: the server is likely there again
  send();
  endKept();
};
addEventListener("online", again);
document.addEventListener("visibilitychange", () => document.hidden || again());
endKept();
addEventListener("storage", ({ key }) => key === `digsite.${KEPT}` && entered && draw());

/** Shares the tally on the screen: kept on the server with its counts as they stand. */
async function start() {
  const { tally, request } = entered;
  state = "starting";
  draw();
  const url = `${GAMES}/${tally.game}/tallies`;
  let answer = await call("POST", url, { sheet: request });
  if (answer.failed === 422) answer = await call("POST", url, { sheet: null }); // not a sheet the box holds
  if (answer.failed) {
    state = "idle";
    draw();
    say(answer.failed === "offline" ? t("liveNeedsNetwork") : answer.failed === 429
      ? t("liveTooMany", { n: answer.retry || 60 }) : t("liveFailed"));
    return;
  }
  const sent = JSON.stringify({ sheet: request });
  // the counts changed while the server answered are sent after
  keep(tally.id, { of: tally.id, game: tally.game, id: answer.tally.id, token: answer.token, sent, v: answer.tally.version, last: JSON.stringify({ sheet: entered.request }) });
  state = "sent";
  linkOpen = true;
  draw();
  byId(ids.part(ID, "link"))?.focus();
  send();
  setTimeout(beat); // heard at once: a follower judges it from its first beat
}

/** Sends every share's latest counts the server has not, whichever tally is on the screen. */
async function send() {
  clearTimeout(timer);
  if (sending) return;
  sending = true;
  let failed;
  for (let of, kept; !failed && ([of, kept] = Object.entries(shares()).find(([, s]) => s.last && s.last !== s.sent) || []).length;) {
    const body = kept.last;
    if (of === entered?.tally.id) state = "sending";
    const answer = await put(kept, body);
    const now = shares()[of];
    if (now?.id !== kept.id) continue; // stopped meanwhile
    if (answer.failed === "offline" || answer.failed === 429) failed = answer;
    else if (!answer.failed) {
      keep(of, { ...now, sent: body, v: answer.version });
      if (!now.heard) setTimeout(beat); // as after start()
    }
    else {
      // the server no longer has it (removed after weeks untouched), or the token is not its own
      keep(of, null);
      if (of === entered?.tally.id) say(t("liveGone"));
    }
  }
  sending = false;
  if (failed) timer = setTimeout(send, retryIn(tries++, failed.retry));
  else tries = 0;
  const kept = mine();
  state = !kept ? "idle" : kept.last && kept.last !== kept.sent ? "offline" : "sent";
  draw();
}

// While a share's tally is on the screen its counts go again every HEARD_MS, unchanged, at the
// version last answered (If-Match: a change made meanwhile is never undone): no new version, and
// its followers tell this phone gone quiet from one still there (follow.js). A server that makes
// it a new version (an earlier release) is not sent it again; one that no longer has it, told.
async function beat() {
  const of = entered?.tally.id, kept = mine();
  if (!panel?.isConnected || !kept?.v || kept.old || kept.last !== kept.sent || sending || document.hidden) return;
  const answer = await put(kept, kept.sent, kept.v);
  const now = shares()[of];
  if (now?.id !== kept.id || [412, 429, "offline"].includes(answer.failed)) return;
  if (answer.failed) { // sent as a change, whose failure is said
    keep(of, { ...now, sent: null });
    send();
  }
  else keep(of, { ...now, heard: true, ...(answer.version !== kept.v && { v: answer.version, old: true }) });
}
setInterval(beat, HEARD_MS);

function stop() {
  clearTimeout(timer);
  // The server forgets the tally, so its followers hear that the sharing ended (offline, once it
  // answers).
  unshare(entered.tally.id);
  state = "idle";
  draw();
  say(t("liveStopped"));
  byId(ids.part(ID, "start"))?.focus();
}

/** Hands the link on: the phone's share sheet, else the clipboard, else it stays to be copied. */
async function handOn(url) {
  try {
    if (navigator.share) return await navigator.share({ title: t("title"), url });
    await navigator.clipboard.writeText(url);
    say(t("liveLinkCopied"));
  } catch (error) {
    if (error.name !== "AbortError") say(t("liveLinkByHand"));
  }
}

let panel = null;

/** The panel under the standings: the button that shares, or the share, its link and QR code. */
function draw() {
  const kept = mine();
  if (!kept && state !== "starting") state = "idle";
  else if (kept && state === "idle") state = "sent";
  const heading = ids.part(ID, "h");
  const said = { starting: "liveStarting", sent: "liveSent", sending: "liveSent", offline: "liveOffline" }[state];
  const content = () => (kept ? [
    h("h2", { id: heading, text: t("liveSharing") }),
    h("p", { id: ids.part(ID, "status"), class: state === "offline" ? "warn" : "muted", role: "status", text: t(said) }),
    h("details", { class: "follow-link", open: linkOpen, ontoggle: (e) => { linkOpen = e.target.open; } },
      h("summary", { text: t("liveLinkAndQr") }),
      h("p", { class: "muted", text: t("liveHowToFollow") }),
      h("a", { id: ids.part(ID, "link"), class: "link", href: followLink(kept.id), target: "_blank", rel: "noopener", text: followLink(kept.id) }),
      h("img", { class: "qr", src: `/qr.svg?text=${encodeURIComponent(followLink(kept.id))}`, alt: t("liveQr"), width: 220, height: 220 })),
    h("div", { class: "tools" },
      h("button", { type: "button", text: t("liveHandOn"), onclick: () => handOn(followLink(kept.id)) }),
      h("button", { type: "button", id: ids.part(ID, "stop"), class: "quiet danger-text", text: t("liveStop"), onclick: stop })),
  ] : [
    h("h2", { id: heading, text: t("liveShare") }),
    h("p", { id: ids.hint(ID), class: "muted", text: t("liveHint") }),
    h("button", { type: "button", id: ids.part(ID, "start"), class: "primary", disabled: state === "starting",
                  "aria-describedby": ids.hint(ID), text: t(state === "starting" ? "liveStarting" : "liveShare"), onclick: start }),
  ]);
  panel ??= h("section", { id: ID, class: "card live", "aria-labelledby": heading });
  // Drawn again only when what it says changes: not on every count, which would reload the QR code.
  const drawn = JSON.stringify([kept?.id, state, t("liveShare")]);
  if (panel.dataset.drawn !== drawn) {
    const focused = panel.contains(document.activeElement) && document.activeElement.id;
    panel.dataset.drawn = drawn;
    panel.replaceChildren(...content());
    if (focused) byId(focused)?.focus();
  }
  if (!panel.isConnected || panel.previousElementSibling?.id !== ids.standings) byId(ids.standings)?.after(panel);
}
send(); // what an earlier page left unsent (typed offline, then closed)
