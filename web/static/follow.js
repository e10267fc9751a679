// Following a shared tally, read-only (README "A live shared tally"): /follow/{id}, opened from
// the link or QR code the entering phone shows. It draws the server's totals as the scorer's
// result screen does (results.js), each player's breakdown in the game's words (the game's sheet),
// and hears every change on the tally's stream of events. While the table is still entering (a
// tally with no totals), or while the stream is down, it says so and no total is shown as final.
// A dropped stream is taken up again with the last version heard (Last-Event-ID).
import { byId, fill, h, ids } from "./dom.js";
import { fitNames } from "./fit.js";
import words from "./follow.words.js";
import { item, locale, t, useGameWords } from "./i18n.js";
import { GAMES, getJSON } from "./net.js";
import { showResult, spoken } from "./results.js";
import { sheetFor } from "./sheet.js";
import * as store from "./store.js";

// Its own styles (live.css: the share's and the followers'), loaded with it.
document.head.append(h("link", { rel: "stylesheet", href: new URL("./live.css", import.meta.url).href }));

const QUIET_MS = 40_000; // the server says something every 15 s: this long without a word, it is gone
// The entering phone sends its tally again every 20 s while it shows it (live.js), and the server
// passes that on within 15 s (`heard_at`): a `heard_at` 35 s old is a phone still there. Not heard
// this long, it has gone quiet (offline, or put away), and counts typed on it since may not be
// here: 90 s said "Live" over counts the phone no longer held for a minute and a half. A phone
// that never did so (`heard_at` null: an earlier page) is not judged.
const UNHEARD_MS = 50_000;
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];
const STATE = ids.part("follow", "state");
const SAID = ids.part(ids.standings, "said"); // the standings said aloud as they change
const FOLLOWED = "followed"; // the tally last followed, as last heard: { id, lastId, tally }

const main = byId(ids.main);
const bar = byId(ids.bar);

let followed = null; // { id, tally (as the server last sent it), box, sheet, players, drawn }
let link = "connecting"; // the stream: "connecting", "live", "lost" or "gone"
let lastId = null; // the version last heard
let controller = null;
let retry = 0;
let tries = 0;
let skew = 0; // how far this phone's clock is ahead of the server's (its answer's Date)
let framed = false; // the stream has sent the tally since it was opened: its heard_at is now's
let saying = 0;

useGameWords("follow", words);
// a writer goes quiet with nothing sent: drawn again only when that changes
setInterval(() => followed?.tally && unheard() !== followed.unheard && draw(), 5000);

/** Whether the entering phone has not been heard for UNHEARD_MS, as this stream last said. */
const unheard = () => link === "live" && framed && typeof followed.tally.heard_at === "string"
  && Date.now() - skew - new Date(followed.tally.heard_at) > UNHEARD_MS;


/** Follows the shared tally `id` (drawn again in the language in use, if already followed). */
export function follow(id) {
  if (followed?.id === id) return draw();
  followed = { id, tally: null, box: null, sheet: null, players: [], drawn: null };
  // The totals last heard, kept on the phone: a follower reloaded (or reopened) with no network
  // showed none at all. Shown greyed, with their time, until the stream is taken up again.
  const kept = store.cached(FOLLOWED);
  if (kept?.id === id) {
    lastId = kept.lastId;
    useBox(kept.tally.game).then(() => {
      if (followed.id === id && !followed.tally) followed.tally = kept.tally;
      draw();
    }, () => {});
  }
  draw();
  listen();
}

// The stream is taken up again at once when the phone is back online or wakes up.
addEventListener("online", () => link === "lost" && listen());
addEventListener("offline", () => controller?.abort());
document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && link === "lost" && listen());

async function listen() {
  clearTimeout(retry);
  controller?.abort();
  const mine = (controller = new AbortController());
  let quiet = 0;
  const awake = () => {
    clearTimeout(quiet);
    quiet = setTimeout(() => mine.abort(), QUIET_MS);
  };
  awake();
  try {
    const response = await fetch(`/api/v1/tallies/${followed.id}/events`, {
      headers: { Accept: "text/event-stream", ...(lastId && { "Last-Event-ID": lastId }) }, signal: mine.signal, cache: "no-store",
    });
    if (response.status === 404) return state("gone");
    if (!response.ok) throw new Error(String(response.status));
    const date = Date.parse(response.headers.get("Date"));
    if (date) skew = Date.now() - date;
    framed = false;
    // taken up again (or reopened, its last tally kept): only a change since is sent
    if (followed.tally || lastId) state("live");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      awake();
      buffer = (buffer + value).replace(/\r\n?/g, "\n");
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        await heard(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
      tries = 0;
    }
    // The server ends a stream after some minutes: taken up again at once.
    if (mine === controller) listen();
  } catch {
    if (mine !== controller) return; // a newer stream took over
    state("lost");
    retry = setTimeout(listen, RETRY_MS[Math.min(tries, RETRY_MS.length - 1)]);
    tries += 1;
  } finally {
    clearTimeout(quiet);
  }
}

/** One event of the stream: `event: tally`, its version as id, the tally as data. */
async function heard(block) {
  const fields = { data: [] };
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue; // a comment: the server keeping the line open
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (name === "data") fields.data.push(value);
    else fields[name] = value;
  }
  if (fields.event !== "tally" || !fields.data.length) return;
  const tally = JSON.parse(fields.data.join("\n"));
  await useBox(tally.game);
  if (fields.id) lastId = fields.id;
  followed.tally = tally;
  framed = true;
  store.remember(FOLLOWED, { id: followed.id, lastId, tally });
  link = "live";
  draw();
}

/** The game's box and sheet, for its name, unit and the breakdown in its words. */
async function useBox(game) {
  if (followed.box?.id === game) return;
  let box = store.keptBox(game);
  try {
    box = await getJSON(`${GAMES}/${game}`);
    store.remember(`box.${game}`, box);
  } catch (error) {
    if (!box) throw error;
  }
  followed.sheet = await sheetFor(box);
  followed.box = box;
}

function state(now) {
  link = now;
  draw();
}

/** The screen: the game, what the stream says, the standings, each player's card, the bar. */
function draw() {
  const { tally, box, sheet } = followed;
  const name = box ? item("game", box.id, box.name) : t("following");
  document.title = `${name} · ${t("following")}`;
  const pending = !tally?.result;
  const silent = followed.unheard = Boolean(tally) && unheard();
  const words = { connecting: "followConnecting", lost: "followLost", gone: "followGone" }[link]
    || (silent ? "followQuiet" : pending ? "followEntering" : "followLive");
  const time = silent && new Date(tally.heard_at).toLocaleTimeString(locale());
  // The frame is drawn once a language; after that only what changes.
  const frame = JSON.stringify([t("following"), name]);
  if (followed.drawn !== frame) {
    followed.drawn = frame;
    followed.players = [];
    fill(byId(ids.action), h("a", { class: "new", href: "/", text: t("followScorer") }));
    fill(main,
      h("section", { class: "card intro follow", "aria-labelledby": ids.game },
        h("h2", { id: ids.game, text: name }),
        h("p", { id: STATE, class: "live-state", role: "status" }),
        h("p", { id: ids.part("follow", "note"), class: "muted", text: t("followReadOnly") })),
      h("section", { id: ids.standings, class: "card", "aria-labelledby": ids.part(ids.standings, "h") },
        h("h2", { id: ids.part(ids.standings, "h"), text: t("standings") }),
        h("p", { id: SAID, class: "vh", "aria-live": "polite" }),
        h("ol", { id: ids.ranking, class: "ranking" }),
        h("p", { id: ids.tie, class: "tie", hidden: true })),
      h("div", { id: ids.sheets, class: "sheets follow" }));
  }
  const said = byId(STATE);
  if (said.textContent !== t(words, { time })) said.textContent = t(words, { time });
  // the time of the last change beside it, not in what is said aloud at every change
  byId(ids.part("follow", "note")).textContent = [t("followReadOnly"),
    tally && t("followUpdated", { time: new Date(tally.updated_at).toLocaleTimeString(locale()) })].filter(Boolean).join(" · ");
  said.dataset.state = silent ? "quiet" : link === "live" && pending ? "entering" : link;
  // Still entering, the players stay as last sent, with no totals.
  const names = tally?.sheet?.players.map((p) => p.name) ?? followed.players.map((p) => p.name);
  if (JSON.stringify(names) !== JSON.stringify(followed.players.map((p) => p.name))) players(names);
  main.classList.add("following");
  main.classList.toggle("stale", link !== "live" || silent); // greyed: they may be old
  if (!box || !tally) return;
  showResult({ game: tally.game, players: followed.players }, tally.result, {
    lines: (parts, i) => sheet.breakdown(box, parts, tally.sheet.players[i], tally.sheet),
    figures: sheet.tieFigures && ((parts) => sheet.tieFigures(box, parts)),
    ranked: true, currency: box.currency, // the writer sends a sheet once something is entered, a 0 too (tally.js)
  });
  sayStandings(tally.result, box.currency);
}

/** The standings said to a screen reader when they change, as the scorer says them ("1st Ann
 * 12 points, 2nd…"), a second after the last change of a burst: not those found on opening (read
 * with the page), nor a tally sent again unchanged, nor the same words in another language; no
 * standings (the counts being put right), none left said. */
function sayStandings(result, currency) {
  const heard = JSON.stringify(result?.players.map((r) => [r.name, r.rank, r.total]) ?? null);
  if (heard === followed.heard) return;
  const first = followed.heard == null;
  followed.heard = heard;
  clearTimeout(saying);
  if (!result) byId(SAID).textContent = followed.told = "";
  else if (first) followed.told = result;
  else {
    saying = setTimeout(() => {
      const text = spoken(result, currency, followed.told);
      if (text) byId(SAID).textContent = text; // none: back to the standings last said
      followed.told = result;
    }, 1000);
  }
}

/** A card for each player (total, place, breakdown), as on the scorer, with nothing to enter. */
function players(names) {
  followed.players = names.map((name, i) => ({ id: `f${i}`, name }));
  const unit = followed.box?.currency || t("points");
  fill(byId(ids.sheets), followed.players.map((player) =>
    h("section", { class: "card player", id: ids.sheet(player), "aria-labelledby": ids.name(player) },
      h("div", { class: "head" },
        h("h2", { id: ids.name(player), text: player.name }),
        h("p", { class: "score" },
          h("output", { id: ids.total(player), "aria-label": t("totalOf", { name: player.name }), "aria-live": "off", text: "–" }),
          h("span", { class: "unit", text: t("unitAfter", { unit }) }))),
      h("p", { id: ids.rank(player), class: "rank" }),
      h("details", { class: "breakdown", open: true },
        h("summary", { text: t("breakdown") }),
        h("dl", { id: ids.breakdown(player) })))));
  bar.hidden = !names.length;
  bar.setAttribute("aria-label", t("playersBar"));
  fill(bar, followed.players.map((p) => h("a", { href: `#${ids.sheet(p)}`, class: "chip" },
    h("span", { text: p.name }), h("b", { id: ids.chip(p), text: "–" }))));
  fitNames(bar.querySelectorAll(".chip > span"));
}
