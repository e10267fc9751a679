// Each game's board, drawn from a seat's view of the match (its `state`) and the game's box, never
// from a copy of the box kept here; what the seat may not know is not in its view, so it is not on
// the page either. A board makes tappable what the view's `legal_actions` offers: `offer.take(test)`
// hands it the first action still unplaced that passes `test` (null if none), and
// `offer.button(taken, attributes, ...children)` draws it as a button that plays that action (or,
// with no action, as plain content). Whatever a board does not place is offered as a labelled
// button under it. A place with a `data-spot` is flashed when a move changes it. Also here: every
// action and log event in words, for the buttons, the moves heard and the replay.
import { h } from "./dom.js";
import { item, t } from "./i18n.js";

export const ARROWS = { N: "↑", NE: "↗", E: "→", SE: "↘", S: "↓", SW: "↙", W: "←", NW: "↖" };
export const nameOf = (view, seat) => view.players?.[seat]?.name ?? t("play.seatN", { n: seat + 1 });
/** A seat's player as the moves name them, `who` (in Korean a person with 님, a bot without): a
 * person whose seat a bot now plays (they left, their time ran out) is still a person, in their
 * own earlier moves too. */
export const personOf = (view, seat, name = nameOf(view, seat)) => {
  const player = view.players?.[seat];
  return t("play.person", { name, bot: player?.away ? null : player?.bot });
};

export const graphemes = (text) => Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text), (part) => part.segment);

/** Each seat's name as short as a square of a board shows it, still telling the seats apart:
 * its first three letters, or, where another seat's begin alike ("Player 1", "Player 2"), its
 * first letter and the first two of what follows the part they share ("P1", "P2"). */
export function shortNames(view) {
  const names = (view.players || []).map((_, seat) => graphemes(nameOf(view, seat)));
  const shared = (a, b) => {
    let k = 0;
    while (k < a.length && k < b.length && a[k] === b[k]) k++;
    return k;
  };
  return names.map((name, seat) => {
    const short = name.slice(0, 3).join("");
    const alike = names.filter((other, s) => s !== seat && other.slice(0, 3).join("") === short);
    if (!alike.length) return short;
    const rest = graphemes(name.slice(Math.min(...alike.map((other) => shared(name, other)))).join("").trim());
    return rest.length ? name[0] + rest.slice(0, 2).join("") : short;
  });
}

/** A bot seat's tag naming its kind ("greedy bot"), unless its name says it already, as the page
 * names a bot ("Greedy bot 2"): "Greedy bot [greedy bot]". */
export function botTag(p) {
  if (!p.bot) return null;
  const kind = t("play.bot", { bot: item("bot", p.bot) });
  return (p.name ?? "").toLowerCase().startsWith(kind.toLowerCase()) ? null : h("span", { class: "tag bot", text: kind });
}

export const swatch = (colour) => h("span", { class: `dot c-${colour}`, "aria-hidden": "true" });
export const colourWord = (colour) => item("colour", colour);
export const scentWords = (scent) => scent.map(colourWord).join("/");
// The words break at their slash (<wbr>), not inside a colour, where a narrow cell must break them.
export const scentOf = (scent) => h("span", { class: "scent" }, scent.map(swatch),
  h("span", {}, ...scent.flatMap((colour, i) => [i ? "/" : null, i ? h("wbr") : null, colourWord(colour)])));

// Each game's own part (its actions and events in words, its board) is a module of its own,
// web/static/boards/{game id}.js, loaded when a match of that game is first shown.
const boards = {};

/** Load the view's game's part: before any of the functions below is asked about that game. */
export async function loadBoard(game) {
  if (!(game in boards)) boards[game] = (await import(`./boards/${game}.js`).catch(() => ({ default: null }))).default;
}

/** The game's own part, once loaded (null for a game this page has none of). */
export const gamePart = (game) => boards[game] ?? null;

const fieldWords = (action) => Object.entries(action).filter(([k]) => k !== "type")
  .map(([k, v]) => `${k.replaceAll("_", " ")} ${Array.isArray(v) ? v.join(",") : v}`).join(", ");

/** An action in words, for its button and the moves heard. */
export function describeAction(action, view, box) {
  if (action.type === "undo") return t("play.undo");
  const words = boards[view.game]?.label(action, view, box);
  if (words) return words;
  const named = t(`play.action.${action.type}`);
  return [named.startsWith("play.") ? action.type.replaceAll("_", " ") : named, fieldWords(action)].filter(Boolean).join(": ");
}

/** A seat's `away` words: one a bot plays (left, handed over), or one whose time ran out,
 * whose player may still act, and a bot plays again only when the time runs out again. */
export function awayWords(player) {
  return t(player.bot ? "play.away" : "play.awayLate");
}

/** The seqs of the log entries an undo took back. */
export const takenBack = (entries) => new Set([...entries].flatMap((e) => (e.events || []).filter((ev) => ev.type === "undone").map((ev) => ev.seq)));

/** A log entry in words; one an undo took back (its seq in `back`) says so, and one a bot chose
 * for a player's seat (its time ran out, it left, the host handed it over) names the bot: the
 * moves of a seat that is a bot's own need no such word. */
export function describeEntry(entry, view, box, back) {
  let said = entryWords(entry, view, box);
  const seat = view.players?.[entry.seat];
  if (entry.bot && !(seat?.bot && !seat.away)) said = t("play.byBot", { line: said, bot: item("bot", entry.bot) });
  return back?.has(entry.seq) ? `${said} (${t("play.takenBack")})` : said;
}

/** A log entry as a line of the moves list, numbered by its seq: one taken back struck through;
 * `fresh`, just heard (it flashes). */
export const entryItem = (entry, view, box, back, fresh = false) => h("li", {
  class: [fresh && "fresh", back.has(entry.seq) && "undone"].filter(Boolean).join(" ") || null,
  value: entry.seq, text: describeEntry(entry, view, box, back),
});

// Events that say what came of a move, never the move itself (each game's part names its own).
const AFTERMATH = ["game_over"];

/** A log entry in words: who did what, and what came of it. */
function entryWords(entry, view, box) {
  const who = entry.seat == null ? "" : personOf(view, entry.seat);
  const action = entry.action || {};
  const aftermath = [...AFTERMATH, ...(boards[view.game]?.aftermath ?? [])];
  const parts = [];
  let saysMove = false;
  for (const event of entry.events || []) {
    const own = boards[view.game]?.event(event, view, box);
    if (own) parts.push(own);
    else if (event.type === "joined") parts.push(t("play.joined", { who: personOf(view, event.seat, event.name ?? undefined) }));
    else if (event.type === "left") parts.push(t("play.left", { who: personOf(view, event.seat, event.name ?? undefined) }));
    else if (event.type === "taken_over") parts.push(t("play.takenOver", { who: personOf(view, event.seat), bot: item("bot", event.bot) }));
    else if (event.type === "token_reissued") parts.push(t(event.claimed ? "play.claimed" : "play.tokenReissued", { who: personOf(view, event.seat) }));
    else if (event.type === "timed_out") parts.push(t("play.timedOut", { who: personOf(view, event.seat), bot: item("bot", event.bot ?? view.stand_in_bot) }));
    else if (event.type === "undone") parts.push(t("play.undone", { who, n: event.seq }));
    else if (event.type === "game_over") parts.push(t("play.gameOver"));
    else continue;
    saysMove ||= !aftermath.includes(event.type);
  }
  // a line that does not start with a player's name starts as a sentence does
  const joined = parts.join(" — ");
  const said = who && joined.startsWith(who) ? joined : joined.replace(/^\p{Ll}/u, (c) => c.toLocaleUpperCase());
  if (saysMove || !who) return said || describeAction(action, view, box);
  // what came of a move alone ("The yard is reset") left out who moved, and read a bot's end of
  // a turn as the rules': the move is told as done first ("Ann ended the turn — the yard is reset")
  const told = boards[view.game]?.told?.(action, who) ?? (action.type === "end_turn" ? t("play.endedTurn", { who }) : null);
  const done = told ?? `${who}: ${describeAction(action, view, box)}`;
  return joined ? `${done} — ${joined}` : done;
}

/** The board of the view's game, or null for a game this page cannot draw (its actions are still
 * offered as buttons). */
export function drawBoard(view, box, offer) {
  const game = boards[view.game];
  if (!game || !view.state) return null;
  return game.board(view, box, offer);
}
