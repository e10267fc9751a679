// The grid sheet: players across, the game's counts down, each player's total live in the header
// row, and a number pad under the thumb that moves on to the next cell by itself once a count can
// take no more digits. It reads and writes the very counts the per-player sheets do (fields.js),
// through the same `enter`, so switching views shows the same numbers and a reload loses nothing.
// A dinosaur's cell opens its tiles on the pad, drawn as the tiles print them: the position, its
// own value and the set's; a tap is one more tile there.
import { byId, fill, h, ids } from "./dom.js";
import { fitNames, overflows, shrink } from "./fit.js";
import { item, t } from "./i18n.js";
import { number } from "./sheet.js";
import * as store from "./store.js";

let on = null; // what is on show: { tally, groups, enter, unit }
let at = null; // the cell the pad writes to: { player (id), key }
let fresh = true; // the next digit starts the count afresh instead of adding to it
let negative = false; // − pressed before the first digit
let taken = []; // the dinosaur on the pad as it was before each tap on it, the last last (Undo)
let off = false; // −1 pressed: the next tile tapped is one fewer, not one more
// The cell the pad moved on from by itself after a complete count, while nothing was pressed
// since: a Next now is that move (a player pressing Next after every count skipped a row each
// time), not one more, and ⌫ puts right the count just typed, not the next one.
let movedOn = null;

const ACROSS = "gridAcross"; // kept on the phone: Next goes to the next player, not the next count

/** Its own styles (grid.css), loaded with it rather than with the first page: the grid is drawn
 * once they are (or failed to load). */
export const styled = new Promise((done) => document.head.append(h("link", {
  rel: "stylesheet", href: new URL("./grid.css", import.meta.url).href, onload: done, onerror: done })));

/** The lines of the grid, top to bottom: a count, a mission, a check, or a dinosaur's tiles. */
const lines = (groups) => groups.flatMap((group) => (group.skeleton
  ? [{ key: group.path, group, word: group.legend, skeleton: true }]
  : group.rows.map((row) => ({ key: row.key, group, row, word: row.short || row.word }))));

const cellId = (player, line) => ids.field(player, line.row || { key: line.key });
const playerOf = (id) => on.tally.players.find((p) => p.id === id);
const lineOf = (key) => lines(on.groups).find((l) => l.key === key);

/** How many tiles of a dinosaur's position (its row) a player holds: none for a count left
 * empty or below zero. */
const tilesAt = (player, row) => Math.max(0, number(player.values[row.key]) || 0);

/** How many tiles of a position (its row) the players other than `player` hold. */
const tilesElsewhere = (player, row) => on.tally.players.reduce((sum, p) => sum + (p === player ? 0 : tilesAt(p, row)), 0);

/** The positions of a dinosaur (1 for its first) the table holds more tiles of than the box has. */
const overHeld = (player, line) => line.group.rows.flatMap((row, i) => (tilesAt(player, row) + tilesElsewhere(player, row) > row.max ? [i + 1] : []));

/** How many tiles a player holds of a dinosaur, and how many complete sets they make. */
function held(player, line) {
  const counts = line.group.rows.map((row) => tilesAt(player, row));
  return { tiles: counts.reduce((a, b) => a + b, 0), sets: Math.min(...counts) };
}

/** The grid for `tally`: `enter(player, key, value)` takes every change, as on the sheets;
 * `tools(player)` are a player's buttons (rename, move, remove). */
export function gridSheet(tally, { groups, unit, enter, tools }) {
  on = { tally, groups, enter, unit };
  if (at && !(playerOf(at.player) && lineOf(at.key))) at = null;
  const players = tally.players;
  if (!players.length) return null;
  const all = lines(groups);
  const head = h("thead", {}, h("tr", {},
    h("th", { scope: "col", class: "corner" }, h("span", { class: "vh", text: t("count") }), h("span", { class: "unit", text: unit })),
    players.map((player) => h("th", { scope: "col", id: ids.part(ids.sheet(player), "col") },
      h("span", { class: "who", text: player.name }),
      h("output", { id: ids.total(player), "aria-label": t("totalOf", { name: player.name }), "aria-live": "off", text: "–" }),
      h("span", { id: ids.rank(player), class: "rank" })))));
  const bodies = groups.map((group) => h("tbody", {},
    group.skeleton || groups.length === 1 ? null
      : h("tr", { class: "legend" }, h("th", { scope: "rowgroup", colspan: players.length + 1, text: group.legend })),
    all.filter((line) => line.group === group).map((line) => h("tr", { id: ids.part(ids.sheets, line.key) },
      h("th", { scope: "row", class: line.skeleton ? "dino-name" : null }, h("span", { class: "w", text: line.word }),
        line.row?.tag ? h("span", { class: "tag", text: line.row.tag }) : null,
        line.skeleton ? h("span", { class: "tag", text: t("setOf", { n: line.group.rows.length, value: line.group.value }) }) : null),
      players.map((player) => h("td", {}, cell(player, line)))))));
  const grid = h("section", { class: "grid-view", "aria-labelledby": ids.part(ids.sheets, "caption") },
    h("table", { class: players.length >= 5 ? "grid five" : "grid", id: ids.part(ids.sheets, "grid") },
      h("caption", { id: ids.part(ids.sheets, "caption"), class: "vh", text: t("gridCaption") }), head, bodies),
    messages(players, groups),
    players.map((player) => h("details", { class: "card breakdown", id: ids.sheet(player) },
      h("summary", { text: `${player.name}: ${t("breakdown")}` }),
      h("dl", { id: ids.breakdown(player) }),
      tools(player))),
    pad());
  // The names' column gives way to the players' as the table grows.
  grid.style.setProperty("--corner", `${58 - 6 * players.length}%`);
  grid.style.setProperty("--n", players.length);
  return grid;
}

/** A cell's own control, named by the player and the count ("Ann gold"), its message the one
 * the per-player sheet would show under that count. */
function cell(player, line) {
  const id = cellId(player, line);
  const value = player.values[line.key];
  const select = () => choose(player, line);
  if (line.skeleton) {
    return h("button", { type: "button", id, class: "dino", onclick: select, onfocus: select,
      "aria-describedby": ids.groupMsg(player, line.group) }, h("span", { class: "vh", text: `${player.name} ${line.word}: ` }), dinoFace(player, line));
  }
  const row = line.row;
  const msg = ids.msg(id);
  if (row.kind === "mission") {
    return h("div", { class: "mission" },
      h("select", { id, "aria-label": `${player.name} ${row.word}`, onfocus: select,
        "aria-describedby": `${ids.part(id, "status")} ${msg}`, oninput: (e) => on.enter(player, row.key, e.target.value) },
      // None shown as the grid's other empty cells are, "–": a narrow column cut "No mission" to
      // "No r"; a screen reader still hears the words.
      h("option", { value: "", text: "–", "aria-label": t("noMission") }),
      // The bonus first: it is what a narrow cell shows of the mission chosen.
      row.options.map((m) => h("option", { value: m.id, text: `${m.bonus} ${on.unit} · ${missionName(m)}`, selected: m.id === value }))),
      // Under it, the name chosen: missions of one bonus look alike in a narrow list.
      h("span", { id: ids.part(id, "named"), class: "named", "aria-hidden": "true", text: namedIn(row, value) }),
      h("span", { id: ids.part(id, "status"), class: "verdict" }));
  }
  if (row.kind === "check") {
    return h("input", { type: "checkbox", id, checked: Boolean(value), onfocus: select, "aria-label": `${player.name} ${row.word}`,
      "aria-describedby": msg, oninput: (e) => on.enter(player, row.key, e.target.checked) });
  }
  return h("input", {
    id, value: value == null || Number.isNaN(value) ? "" : String(value), placeholder: "0", inputmode: "none", autocomplete: "off",
    // Tapped again while the pad writes to it (the pad's keys never take the focus from it),
    // it is chosen again all the same: its count starts afresh.
    enterkeyhint: "next", "aria-label": `${player.name} ${line.word}`, "aria-describedby": msg, onfocus: select, onclick: select,
    oninput: (e) => on.enter(player, row.key, e.target.value.trim()),
    onkeydown: (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        next();
      }
    },
  });
}

const missionName = (m) => item("mission", m.id, m.name);

/** The name of the mission `value` of a mission row ("" for none). */
function namedIn(row, value) {
  const mission = row.options.find((m) => m.id === value);
  return mission ? missionName(mission) : "";
}

/** A dinosaur's cell: the tiles held, ✓ once they make a complete set. */
function dinoFace(player, line) {
  const { tiles, sets } = held(player, line);
  return h("span", { class: "face" }, h("span", { text: tiles ? String(tiles) : "–" }),
    sets ? h("span", { class: "done", text: sets > 1 ? `✓${sets}` : "✓", title: t("completeSets", { n: sets }) }) : null,
    sets ? h("span", { class: "vh", text: t("completeSets", { n: sets }) }) : null);
}

/** Where the per-player sheet says what is wrong with a count, the grid says it under the grid,
 * each message led by whose count it is. */
function messages(players, groups) {
  const say = (id, lead) => h("div", { class: "say" }, h("span", { class: "lead", text: lead }), h("p", { id, class: "msg" }));
  return h("div", { class: "says" }, players.flatMap((player) => [
    say(ids.msg(ids.sheet(player)), player.name),
    ...groups.flatMap((group) => [
      say(ids.groupMsg(player, group), `${player.name} · ${group.legend}`),
      ...(group.skeleton ? [] : group.rows.map((row) => say(ids.msg(ids.field(player, row)), `${player.name} · ${row.short || row.word}`))),
    ]),
  ]));
}

// --- the pad ------------------------------------------------------------------------------------

const across = () => Boolean(store.cached(ACROSS));

/** A pad key: pressing it leaves the focus where it was (in the cell), so the phone's own keyboard
 * stays away and the cell stays the one written to. */
const key = (text, onclick, extra = {}, ...content) => h("button", {
  type: "button", class: "key", text, onclick, onmousedown: (e) => e.preventDefault(), onpointerdown: (e) => e.preventDefault(), ...extra,
}, ...content);

function pad() {
  const player = at && playerOf(at.player);
  const line = at && lineOf(at.key);
  // A long name gives way, never the count: which count is being written is what the label is for.
  // A count being typed that could take another digit is waited on, and the pad says so: "1"
  // typed for gold left the pad there unseen, and the next count's digits went to gold.
  const typed = typing();
  // "…" and "another digit" only where one would still be a count it can hold: gold's 12 waits
  // for Next alone
  const more = typed != null && takesMore(line.row, typed);
  const where = player
    ? [h("span", { class: "who", text: player.name }), h("span", { class: "what", text: ` · ${line.word}` }),
      typed == null ? null : h("span", { class: "typed", text: ` = ${typed.replace("-", "−")}${more ? "…" : ""}` }),
      typed == null ? null : h("span", { class: "vh", text: ` ${t(more ? "padMore" : "next")}` })]
    : [t("padNone")];
  const flow = key(across() ? "→" : "↓", () => {
    store.remember(ACROSS, !across());
    repaintPad();
  }, { class: "key flow", "aria-pressed": String(across()), "aria-label": t("nextAcross") });
  const nextKey = key(t("next"), pressNext, { class: typed == null ? "key next" : "key next waiting", "aria-label": t("nextCell"), disabled: !player });
  let keys;
  if (line?.skeleton) {
    const none = held(player, line).tiles === 0;
    if (none) off = false;
    keys = [tiles(player, line), h("div", { class: "keys acts six" },
      // one more of each position that can take one: a position held from every era stays
      key(t("oneOfEach"), () => tapped(player, line, () => oneOfEach(player, line)), { disabled: line.group.rows.every((row) => tilesAt(player, row) >= row.max) }),
      // the next tile tapped is one fewer: a tile too many taken off alone, as a count's − is one sign
      key("−1", () => { off = !off; repaintPad(); }, { class: "key off", "aria-label": `−1, ${t("tileOff")}`, "aria-pressed": String(off), disabled: none }),
      key(t("undo"), () => undoTap(player, line), { "aria-label": t("undoTap"), disabled: !taken.length }),
      key(t("clear"), () => tapped(player, line, () => line.group.rows.forEach((row) => write(player, row.key, ""))), { disabled: none }),
      flow, nextKey)];
  } else if (line && line.row.kind) {
    keys = [h("div", { class: "keys acts" }, flow, nextKey)];
  } else {
    const off = !player;
    // − only where a count goes below zero (money).
    const sign = key("−", pressMinus, { "aria-label": t("minusSign"), "aria-pressed": String(negative), disabled: off || (line.row.min != null && line.row.min >= 0) });
    keys = [h("div", { class: "keys digits" },
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 0].map((d) => key(String(d), () => digit(d), { disabled: off })),
      sign, key("⌫", backspace, { "aria-label": t("backspace"), disabled: off }), flow, nextKey)];
  }
  return h("div", { id: ids.part(ids.sheets, "pad"), class: "pad", role: "group", "aria-label": t("pad") },
    h("p", { class: "pad-say", text: refusal(player, line) }), // heard as the page says it (tally.js), not twice
    h("p", { class: "at", id: ids.part(ids.sheets, "at"), "aria-live": "polite" }, ...where),
    // Always as tall, whatever the cell: a pad that changed height would move the page under the thumb.
    h("div", { class: "pad-keys" }, keys));
}

/** What the table refuses, said on the pad over the cell's name: the refusals are said above the
 * grid and under it, both off screen behind the pad on a small phone. The dinosaur on the pad held
 * too often, and how to put it right; else the refusal of the cell the pad is on; else the first
 * said under the grid; each led by whose count it is, but for a limit of the whole table ("Together
 * the players hold…") said of another cell than the pad's: it was led by the first player holding
 * some, whose count was not the one at fault. The pad grows upwards for it: its keys stay where
 * the thumb is. */
function refusal(player, line) {
  const over = line?.skeleton ? overHeld(player, line) : [];
  if (over.length) return t("tilesOver", { positions: over.join(", ") });
  const own = player && line && (line.skeleton ? ids.groupMsg(player, line.group) : ids.msg(cellId(player, line)));
  const said = [...document.querySelectorAll(".says .say")].filter((say) => say.querySelector(".msg")?.textContent.trim());
  const mine = said.find((say) => say.querySelector(".msg").id === own);
  const table = ["players", "general"].map((key) => byId(ids.msg(key))?.textContent.trim()).find(Boolean);
  const first = mine ?? said[0];
  if (!first) return table ?? "";
  const words = first.querySelector(".msg").textContent.trim();
  return first !== mine && table?.includes(words) ? words : `${first.querySelector(".lead").textContent}: ${words}`;
}

/** Each key's words made smaller where they are wider or taller than the key (to half their size
 * at the least), as with the phone's text made larger: at 150% "Undo" read "Undc" and "One of
 * each" lost its last line. */
const fitKeys = (keys) => shrink(keys, overflows, 0.5);

/** A dinosaur's tiles as printed: each position with its own value, the set's value, the tiles
 * held there (one from each era at the most); a tap is one more, and a tile held from every era
 * takes no more (a tap too many, a double tap, once emptied it). Undo takes a tap back; after −1
 * a tap takes one tile off instead.
 * The box holds one of each tile an era: those the other players hold are drawn and said too,
 * so a tile all of whose eras are held elsewhere is seen to be taken before it is tapped (a tap
 * is still taken, and the dinosaur marked as one held too often: the counts entered before may
 * be the wrong ones). */
function tiles(player, line) {
  const { rows } = line.group;
  const grid = h("div", { class: off ? "tiles off" : "tiles", role: "group", "aria-label": `${player.name} ${line.word}` }, rows.map((row, i) => {
    const n = tilesAt(player, row);
    const full = n >= row.max;
    const others = tilesElsewhere(player, row);
    const over = n + others > row.max;
    const words = [t("tileHeld", { dinosaur: line.word, position: i + 1, value: row.hint, held: n }),
      others ? t("tileElsewhere", { n: others }) : null, over ? t("tileOver") : null].filter(Boolean).join(", ");
    const shut = off ? n === 0 : full; // nothing to take off; no era left to add
    // Read as words; drawn as the tile prints it, with a dot for each tile held, a cross for each
    // held by another player: more than the box's eras when the table holds too many, drawn so.
    const tap = () => {
      const fewer = off; // tapped() lets go of −1
      tapped(player, line, () => write(player, row.key, fewer ? (n > 1 ? String(n - 1) : "") : String(n + 1)));
    };
    return key(null, () => shut || tap(), {
      class: `key tile${n ? " held" : ""}${full ? " full" : ""}${n + others >= row.max && !full ? " taken" : ""}${over ? " over" : ""}`, "aria-disabled": String(shut) },
      h("span", { class: "vh", text: words }),
      h("span", { class: "pos", "aria-hidden": "true", text: String(i + 1) }),
      h("span", { class: "vals", "aria-hidden": "true", text: `${row.hint} | ${line.group.value}` }),
      h("span", { class: "eras", "aria-hidden": "true", text: "●".repeat(n) + "×".repeat(others) + "○".repeat(Math.max(0, row.max - n - others)) }));
  }));
  grid.style.setProperty("--across", String(rows.length <= 4 ? rows.length : Math.ceil(rows.length / 2)));
  return grid;
}

/** `change` on the pad, the dinosaur as it was kept for Undo. */
function tapped(player, line, change) {
  off = false;
  movedOn = null;
  taken.push(Object.fromEntries(line.group.rows.map((row) => [row.key, player.values[row.key] ?? ""])));
  change();
}

/** The last tap on the dinosaur taken back. */
function undoTap(player, line) {
  off = false;
  const was = taken.pop();
  if (!was) return;
  for (const row of line.group.rows) {
    if (String(player.values[row.key] ?? "") !== String(was[row.key])) write(player, row.key, String(was[row.key]));
  }
  repaintPad();
}

function oneOfEach(player, line) {
  for (const row of line.group.rows) write(player, row.key, String(Math.min(row.max, (number(player.values[row.key]) || 0) + 1)));
}

/** The cell the pad writes to from now on: a digit starts its count afresh, even tapped again. */
function choose(player, line) {
  if (at?.player !== player.id || at?.key !== line.key) {
    taken = []; // Undo is the dinosaur's on the pad
    off = false;
  }
  at = { player: player.id, key: line.key };
  movedOn = null;
  fresh = true;
  negative = false;
  mark();
  repaintPad();
}

function mark() {
  for (const el of document.querySelectorAll(".grid td.at")) el.classList.remove("at", "typing");
  const player = at && playerOf(at.player);
  const td = player && byId(cellId(player, lineOf(at.key)))?.closest("td");
  td?.classList.add("at");
  td?.classList.toggle("typing", typing() != null);
}

/** What the pad has typed so far into the count it stays on, waiting for another digit or Next
 * (a count within its limits: one past them is marked to be put right); null when it waits on
 * nothing (a cell just chosen, a count not typed on the pad). */
function typing() {
  const player = !fresh && at && playerOf(at.player);
  const line = player && lineOf(at.key);
  if (!line || line.skeleton || line.row.kind) return null;
  const raw = byId(cellId(player, line))?.value ?? "";
  const n = Number(raw);
  const within = Number.isInteger(n) && !(n > line.row.max) && !(n < (line.row.min ?? 0));
  return raw.trim() !== "" && within ? raw : null;
}

function repaintPad() {
  const old = byId(ids.part(ids.sheets, "pad"));
  if (!old) return;
  const focused = old.contains(document.activeElement) ? document.activeElement : null;
  const name = (button) => button.getAttribute("aria-label") || button.textContent;
  const drawn = pad();
  old.replaceWith(drawn);
  fitNames(drawn.querySelectorAll(".at .who"));
  fitKeys(drawn.querySelectorAll(".key"));
  measured();
  // A keyboard on the pad keeps its place on it.
  if (focused) [...drawn.querySelectorAll("button")].find((b) => name(b) === name(focused))?.focus();
}

/** Writes `raw` to a player's count, as typing it would. */
function write(player, key, raw) {
  const line = lineOf(key);
  const input = line && !line.skeleton ? byId(cellId(player, line)) : null;
  if (input) {
    input.value = raw;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  } else {
    on.enter(player, key, raw);
    const dinosaur = lines(on.groups).find((l) => l.skeleton && l.group.rows.some((row) => row.key === key));
    byId(cellId(player, dinosaur))?.lastChild.replaceWith(dinoFace(player, dinosaur));
    repaintPad();
  }
}

function digit(d) {
  movedOn = null;
  const player = playerOf(at.player);
  const line = lineOf(at.key);
  const input = byId(cellId(player, line));
  const raw = fresh ? `${negative ? "-" : ""}${d}` : `${input.value}${d}`;
  fresh = false;
  negative = false;
  write(player, line.key, raw);
  const n = Number(raw);
  // A first digit that no further one could keep within its limit is a whole count: on to the
  // next cell. Two digits wait for Next, as a count that could take more does: "1" then "0",
  // meant as gold 1 and no incense burner, made gold 10 and moved on, every count after it a
  // row down, unseen. One past its limit stays, to be put right.
  if (line.row.max != null && raw.replace("-", "").length === 1 && n >= 0 && n <= line.row.max
      && !takesMore(line.row, raw)) {
    const from = at;
    next();
    movedOn = at && from;
  } else repaintPad();
}

/** Whether the count typed so far as `raw` could take one more digit and still be one the row
 * holds: no count starts with 0. */
function takesMore(row, raw) {
  const longer = Number(`${raw}0`);
  return Number(raw) !== 0 && !(longer > row.max) && !(longer < (row.min ?? 0));
}

function pressNext() {
  if (movedOn) movedOn = null;
  else next();
}

function pressMinus() {
  movedOn = null;
  const player = playerOf(at.player);
  const input = byId(cellId(player, lineOf(at.key)));
  const n = Number(input.value);
  if (fresh || !input.value || !n) negative = !negative;
  else write(player, at.key, String(-n));
  repaintPad();
}

function backspace() {
  if (movedOn) go(playerOf(movedOn.player), lineOf(movedOn.key)); // back to the count just typed
  movedOn = null;
  const player = playerOf(at.player);
  const input = byId(cellId(player, lineOf(at.key)));
  fresh = false;
  negative = false;
  write(player, at.key, input.value.slice(0, -1));
  repaintPad();
}

/** The cells in the order Next visits them: down each player's counts, or across the players. */
function order() {
  const cells = [];
  const players = on.tally.players;
  const all = lines(on.groups);
  const open = (player, line) => !byId(cellId(player, line))?.closest("td")?.classList.contains("off");
  if (across()) all.forEach((line) => players.forEach((player) => open(player, line) && cells.push([player, line])));
  else players.forEach((player) => all.forEach((line) => open(player, line) && cells.push([player, line])));
  return cells;
}

/** On to the next cell; after the last one the pad says so and stays. */
function next() {
  if (!at) return;
  const cells = order();
  const i = cells.findIndex(([player, line]) => player.id === at.player && line.key === at.key);
  const following = cells[i + 1];
  if (!following) {
    fresh = true;
    mark();
    repaintPad();
    byId(ids.part(ids.sheets, "at")).textContent = t("lastCell");
    return;
  }
  go(...following);
}

function go(player, line, scroll = true) {
  const el = byId(cellId(player, line));
  choose(player, line);
  const pad = byId(ids.part(ids.sheets, "pad"));
  if (!pad?.contains(document.activeElement)) el.focus({ preventScroll: true });
  if (scroll) el.scrollIntoView({ block: "nearest" });
}

/** Counting starts at `player`'s first cell, the page left where it is. */
export function start(player) {
  const line = lines(on.groups)[0];
  if (player && line) go(player, line, false);
}

/** After every change: each mission judged from the counts, a check shown only to the players it
 * concerns (a line nobody needs is hidden), each dinosaur's cell marked while a message is about it. */
export function refresh(players, groups) {
  for (const line of lines(groups)) {
    const row = line.row;
    if (row?.kind === "mission") {
      for (const player of players) {
        const el = byId(ids.part(cellId(player, line), "named"));
        if (el) el.textContent = namedIn(row, player.values[row.key]);
      }
    }
    if (row?.status) {
      for (const player of players) {
        const { text = "", good = false } = row.status(player) || {};
        const el = byId(ids.part(cellId(player, line), "status"));
        if (!el) continue;
        fill(el, text ? h("span", { "aria-hidden": "true", text: good ? "✓" : "✗" }) : null, text ? h("span", { class: "vh", text }) : null);
        el.classList.toggle("good", good);
      }
    }
    if (row?.shown) {
      const seen = players.map((player) => row.shown(player));
      players.forEach((player, i) => byId(cellId(player, line))?.closest("td")?.classList.toggle("off", !seen[i]));
      const tr = byId(ids.part(ids.sheets, line.key));
      if (tr) tr.hidden = !seen.some(Boolean);
    }
  }
  fitKeys(document.querySelectorAll(".pad .key"));
  measured();
  mark();
}

/** The page keeps the pad's height free below the grid (grid.css); a pad put away while a name is
 * typed keeps its room, so that the page does not move under the thumb about to tap Add. */
function measured() {
  const pad = byId(ids.part(ids.sheets, "pad"));
  if (pad && !pad.offsetHeight) return;
  document.documentElement.style.setProperty("--pad", `${pad?.offsetHeight ?? 0}px`);
}

/** After every answer: the winners' columns marked, and a dinosaur's cell marked while what is
 * wrong is said of its tiles. */
export function shown(tally, result, ranked) {
  const say = document.querySelector(".pad .pad-say");
  const said = say && (at ? refusal(playerOf(at.player), lineOf(at.key)) : refusal(null, null));
  if (say && say.textContent !== said) {
    say.textContent = said;
    measured();
  }
  for (const player of tally.players) {
    const won = Boolean(ranked && result?.winners.includes(player.name));
    byId(ids.part(ids.sheet(player), "col"))?.classList.toggle("won", won);
  }
  for (const line of lines(on.groups).filter((l) => l.skeleton)) {
    for (const player of tally.players) {
      const said = byId(ids.groupMsg(player, line.group))?.textContent;
      const el = byId(cellId(player, line));
      if (said) el?.setAttribute("aria-invalid", "true");
      else el?.removeAttribute("aria-invalid");
    }
  }
}
