// Setting up a match at /play: the game and its variant from the catalogue (GET /api/v1/games),
// the seats (this phone's player, an open seat for a friend, or a bot of any kind the game
// lists), a clock if wanted; the match is created and opened on this phone's seat. Below, the
// listed matches waiting for players, to join, and the matches this phone holds a seat in.
import { byId, fill, h, ids, keepFocus, say } from "./dom.js";
import { LANGUAGES, item, language, locale, t } from "./i18n.js";
import { api, botName, box as boxOf, keepSeat, lastName, noteStatus, pendingWhere, problemWords, rememberName, seats, send, terms } from "./play-net.js";
import { wordsFor } from "./sheet.js";
import * as store from "./store.js";

const main = byId(ids.main);
const CLOCKS = {
  none: null,
  move: { move_seconds: 60 },
  bank: { bank_seconds: 600, increment_seconds: 10 },
  day: { turn_days: 1 },
};

let games = [];
let chosen = null; // { game, box, variant, seats: [{ kind: "me"|"open"|"bot:<name>", name }], clock, listed }

export async function showSetup() {
  fill(main, h("p", { class: "muted", text: t("loading") }));
  try {
    ({ games } = await api("/games"));
  } catch {
    fill(main, h("section", { class: "card" }, h("p", { text: t("play.offline") })));
    addEventListener("online", showSetup, { once: true }); // as the words promise
    return;
  }
  await choose(games[0].id);
  lobby();
  // A match this phone asked for whose answer never came (reloaded, or closed, meanwhile) is asked
  // for again with its key: the server made it once, and answers its tokens now.
  const unmade = pendingWhere((path) => /^\/games\/[^/]+\/matches$/.test(path));
  if (unmade) make(unmade.path, unmade.body).catch((error) => say(problemWords(error)));
}

async function choose(game) {
  const box = await boxOf(game);
  await wordsFor(box).catch(() => null); // the game's own words: its variants, items
  const entry = games.find((g) => g.id === game);
  const variants = Object.keys(entry.variant_players || {}).length ? Object.keys(entry.variant_players) : entry.variants;
  const variant = variants[0];
  const bot = `bot:${firstBot(box)}`;
  const least = (entry.variant_players?.[variant] || entry.players).min;
  chosen = {
    game, box, entry, variants, variant, clock: "none", listed: false, standIn: firstBot(box),
    seats: [{ kind: "me", name: lastName() }, { kind: "open", name: "" }, ...Array(Math.max(0, least - 2)).fill(null).map(() => ({ kind: bot, name: "" }))],
  };
  draw();
}

/** The bot a new seat and the stand-in start as: greedy where the game has it. */
const firstBot = (box) => (box.bots?.includes("greedy") ? "greedy" : box.bots?.[0]);

const limits = () => chosen.entry.variant_players?.[chosen.variant] || chosen.entry.players;

/** A bot seat's name at the table, in the page's language, as one the host hands a seat to later
 * is named: its kind, numbered from the second of a kind (play-net.js). */
function seatBotName(kind, i) {
  const same = chosen.seats.filter((s) => s.kind === kind);
  return botName(kind.slice(4), same.indexOf(chosen.seats[i]) + 1);
}

/** The form drawn again, the focus kept on the control that had it (a select stepped through
 * with the arrow keys changes at each step), else on the first seat's choice. */
function draw() {
  const inForm = Boolean(document.activeElement?.closest?.(".setup"));
  keepFocus(drawForm);
  // its control gone (a seat removed): the seats' next choice
  if (inForm && !document.activeElement?.closest?.(".setup")) {
    byId(chosen.seats.length < limits().max ? "setup-add-seat" : "seat-1-kind")?.focus({ preventScroll: true });
  }
}

function drawForm() {
  const { entry, box } = chosen;
  const { min, max } = limits();
  const kinds = [
    { id: "me", text: t("play.kindMe") },
    { id: "open", text: t("play.kindOpen") },
    ...(box.bots || []).map((bot) => ({ id: `bot:${bot}`, text: t("play.kindBot", { bot: item("bot", bot) }) })),
  ];
  const rows = chosen.seats.map((seat, i) => {
    const nameId = `seat-${i + 1}-name`;
    const kindId = `seat-${i + 1}-kind`;
    const meTaken = chosen.seats.some((s, j) => j !== i && s.kind === "me");
    return h("li", { class: "seat-row" },
      h("label", { for: kindId, text: t("play.seatN", { n: i + 1 }) }),
      h("select", {
        id: kindId, onchange: (e) => {
          seat.kind = e.target.value;
          if (seat.kind === "me" && !seat.name) seat.name = lastName();
          draw();
        },
      }, kinds.filter((k) => k.id !== "me" || !meTaken).map((k) => h("option", { value: k.id, text: k.text, selected: k.id === seat.kind }))),
      seat.kind === "me" && [h("label", { for: nameId, class: "vh", text: t("play.seatName", { n: i + 1 }) }),
        h("input", { id: nameId, value: seat.name, maxlength: 40, autocomplete: "nickname", placeholder: t("play.yourName"), oninput: (e) => { seat.name = e.target.value; e.target.removeAttribute("aria-invalid"); } })],
      seat.kind === "open" && h("span", { class: "muted", text: t("play.openHint") }),
      seat.kind.startsWith("bot:") && h("span", { class: "muted", text: seatBotName(seat.kind, i) }),
      chosen.seats.length > min && h("button", {
        type: "button", class: "quiet", id: `seat-${i + 1}-remove`, "aria-label": t("play.removeSeat", { n: i + 1 }), text: "✕",
        onclick: () => {
          chosen.seats.splice(i, 1);
          draw();
        },
      }));
  });
  document.title = t("play.title");
  fill(byId(ids.action), h("a", { class: "new", href: "/", text: t("play.scorer") }));
  const form = h("form", { class: "card setup", "aria-labelledby": "setup-title", onsubmit: create },
    h("h2", { id: "setup-title", text: t("play.newMatch") }),
    h("fieldset", { class: "games-pick" }, h("legend", { text: t("play.game") }),
      h("div", { class: "views" }, games.map((g) => h("button", {
        type: "button", id: `setup-game-${g.id}`, "aria-pressed": String(g.id === entry.id), text: item("game", g.id, g.name),
        onclick: () => g.id !== entry.id && choose(g.id),
      })))),
    chosen.variants.length > 1 && h("p", { class: "field" },
      h("label", { for: "setup-variant", text: t("play.variant") }),
      h("select", {
        id: "setup-variant", onchange: (e) => {
          chosen.variant = e.target.value;
          fit();
          draw();
        },
      }, chosen.variants.map((v) => {
        const words = entry.variant_players?.[v];
        return h("option", { value: v, selected: v === chosen.variant, text: `${item("variant", v, words?.name)}${words ? ` (${words.min}–${words.max})` : ""}` });
      }))),
    h("fieldset", {}, h("legend", { text: t("play.seatsFor", { min, max }) }),
      h("ol", { class: "seat-rows" }, rows),
      chosen.seats.length < max && h("button", {
        type: "button", class: "quiet", id: "setup-add-seat", text: t("play.addSeat"),
        onclick: () => {
          chosen.seats.push({ kind: `bot:${firstBot(box)}`, name: "" });
          draw();
          byId(`seat-${chosen.seats.length}-kind`)?.focus(); // on to the seat added
        },
      })),
    h("p", { class: "field" },
      h("label", { for: "setup-clock", text: t("play.clock") }),
      h("select", { id: "setup-clock", onchange: (e) => { chosen.clock = e.target.value; } },
        Object.keys(CLOCKS).map((c) => h("option", { value: c, selected: c === chosen.clock, text: t(`play.clock.${c}`) })))),
    (box.bots || []).length > 1 && h("p", { class: "field" },
      h("label", { for: "setup-stand-in", text: t("play.standIn") }),
      h("select", { id: "setup-stand-in", onchange: (e) => { chosen.standIn = e.target.value; } },
        box.bots.map((b) => h("option", { value: b, selected: b === chosen.standIn, text: t("play.kindBot", { bot: item("bot", b) }) })))),
    h("p", { class: "check" },
      h("input", { type: "checkbox", id: "setup-listed", checked: chosen.listed, onchange: (e) => { chosen.listed = e.target.checked; } }),
      h("label", { for: "setup-listed", text: t("play.listed") })),
    h("p", { id: "setup-msg", class: "msg", role: "alert" }),
    h("button", { class: "primary", text: t("play.create") }));
  const old = byId("setup");
  const section = h("div", { id: "setup" }, form);
  if (old) old.replaceWith(section);
  else fill(main, section, h("div", { id: "lobby" }), h("div", { id: "mine" }), languages());
  mine();
}

/** The page's language, as the scorer chooses it (the same choice, kept on the phone). */
const languages = () => h("div", { class: "card" },
  h("p", { class: "field" },
    h("label", { for: "play-language-pick", text: t("language") }),
    h("select", {
      id: "play-language-pick", onchange: (e) => {
        store.remember("lang", e.target.value);
        location.reload();
      },
    }, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, text: name, selected: code === language })))));

/** Keeps the seats within what the variant takes: a seat it adds is the bot any new seat is. */
function fit() {
  const { min, max } = limits();
  chosen.seats = chosen.seats.slice(0, max);
  while (chosen.seats.length < min) chosen.seats.push({ kind: `bot:${firstBot(chosen.box)}`, name: "" });
}

async function create(event) {
  event.preventDefault();
  const msg = byId("setup-msg");
  const me = chosen.seats.findIndex((s) => s.kind === "me");
  if (me >= 0 && !chosen.seats[me].name.trim()) {
    msg.textContent = t("play.nameNeeded");
    const field = byId(`seat-${me + 1}-name`);
    field?.setAttribute("aria-invalid", "true"); // the field says what is wrong with it, each visit
    field?.setAttribute("aria-describedby", "setup-msg");
    field?.focus();
    return;
  }
  const players = chosen.seats.map((s, i) => (s.kind === "me" ? s.name.trim() : s.kind === "open" ? { open: true }
    : { name: seatBotName(s.kind, i), bot: s.kind.slice(4) }));
  const body = {
    players, variant: chosen.variant, listed: chosen.listed, ...(chosen.standIn && { stand_in_bot: chosen.standIn }),
    ...(CLOCKS[chosen.clock] && { clock: CLOCKS[chosen.clock] }),
  };
  const button = event.submitter;
  if (button) button.disabled = true;
  try {
    await make(`/games/${chosen.game}/matches`, body);
  } catch (error) {
    msg.textContent = problemWords(error);
    if (button) button.disabled = false;
  }
}

/** Creates the match `body` asks for and opens it, its tokens kept. Its answer holds them: sent
 * again until answered (send's `keep`), one match made whatever answers are lost. */
async function make(path, body) {
  const created = await send(path, { body, keep: true });
  const me = body.players.findIndex((p) => typeof p === "string"); // this phone's player
  const held = created.seats.find((s) => s.seat === me);
  if (held) rememberName(held.name);
  keepSeat(created.id, { game: created.game ?? path.split("/")[2], host: created.host_token, ...(held && { seat: held.seat, token: held.token, name: held.name }) });
  location.assign(`/play/${created.id}`);
}

/** The listed matches waiting for players, every game's, to join. */
async function lobby() {
  const found = await Promise.all(games.map((g) => api(`/games/${g.id}/matches?status=waiting&limit=10`).then((a) => a.matches).catch(() => [])));
  const open = found.flat().sort((a, b) => b.created_at.localeCompare(a.created_at));
  const held = seats();
  fill(byId("lobby"), h("section", { class: "card", "aria-labelledby": "lobby-title" },
    h("h2", { id: "lobby-title", text: t("play.lobby") }),
    open.length ? h("ul", { class: "history" }, open.map((m) => {
      const free = m.seats.find((s) => s.open);
      const game = games.find((g) => g.id === m.game);
      const name = item("game", m.game, game?.name);
      const who = m.seats.map((s) => (s.open ? t("play.openSeat") : s.name)).join(", ");
      return h("li", {}, h("a", { class: "button", href: held[m.id] || !free ? `/play/${m.id}` : `/play/${m.id}?seat=${free.seat}` },
        `${t("play.join")}: `, h("b", { text: name }), h("span", { class: "muted", text: ` · ${terms(m.variant, m.clock, game)} · ${who}` })));
    })) : h("p", { class: "muted", text: t("play.lobbyEmpty") }),
    h("button", { type: "button", class: "quiet", onclick: lobby, text: t("play.refresh") })));
}

/** The matches this phone holds a seat in, those not over first, each the latest first, with what
 * it was doing as last seen here (noteStatus, its set-up as under way); once a page, those not
 * over are asked again. */
let asked = false;
function mine() {
  const over = ([, s]) => s.status === "finished" || s.status === "gone";
  const held = Object.entries(seats()).filter(([, s]) => s.token || s.host);
  const listed = [...held.filter((e) => !over(e)), ...held.filter(over)];
  keepFocus(() => fill(byId("mine"), held.length ? h("section", { class: "card", "aria-labelledby": "mine-title" },
    h("h2", { id: "mine-title", text: t("play.yourMatches") }),
    h("ul", { class: "history" }, listed.map(([id, s]) => h("li", {}, h("a", {
      id: `mine-${id}`, class: over([id, s]) ? "button quiet" : "button", href: `/play/${id}`,
      text: [item("game", s.game, games.find((g) => g.id === s.game)?.name || s.game), s.name || t("play.host"),
        s.status && t(`play.mine.${["waiting", "finished", "gone"].includes(s.status) ? s.status : s.turn ? "turn" : "playing"}`),
        new Date(s.at || 0).toLocaleString(locale(), { dateStyle: "medium", timeStyle: "short" })].filter(Boolean).join(" · "),
    }))))) : null));
  if (asked) return;
  asked = true;
  // as a spectator: a seat's own view would show its player at the table to the others
  Promise.allSettled(listed.filter((e) => !over(e)).slice(0, 10).map(([id, s]) => api(`/matches/${id}`)
    .then((view) => noteStatus(id, view, s.seat), (error) => [404, 410].includes(error.status) && noteStatus(id, { status: "gone" })))).then(mine);
}
