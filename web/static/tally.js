// The tally screen: settings, players, counts (on a grid, grid.js, or a sheet each, fields.js) and
// the bar; how it totals and is confirmed: README "The phone page".
import { ask, byId, failure, fill, h, ids, keepFocus, languageField, markInvalid, offlineMeans, say, showStatus, steady, uid } from "./dom.js";
import { fitNames, fitWords } from "./fit.js";
import { clearProblems, mark, showProblems } from "./errors.js";
import { UNREADABLE, playerSheet, refreshRows, stepButtons } from "./fields.js";
import { item, t } from "./i18n.js";
import { NAME_LENGTH, sameName, tidyName } from "./names.js";
import { GAMES, Offline, getJSON, scorer } from "./net.js";
import { showResult, spoken, tieWords } from "./results.js";
import { number, sheetFor } from "./sheet.js";
import * as store from "./store.js";

const main = byId(ids.main);
const bar = byId(ids.bar);

let tally = null; // the tally on the screen, saved on every change
let box = null; // its game's box data
let sheet = null; // its scoresheet and scorer (sheets/{game}.js, scoring/{game}.js)
let groups = []; // the sheet's groups of fields for the current settings
let leave = null; // where "New tally" leads
let view = "sheets"; // "grid" or "sheets": how the counts are entered
let grid = null; // grid.js, once the grid has been on show
let shown = null; // the last answer: { result, request (what it answers), sent (that, canonical), by }
let asked = null; // the request the counts make as they stand (canonical); null while one is no number
// What is typed into a name field and not yet added or saved, by the field's id: the screen is
// drawn again whenever the table changes (a view switched to, another tab's save, a player
// added), and a name half typed then stays in its field, a rename still open.
const drafts = new Map();
let relabelFrame = () => {}; // the page's frame worded again in the language chosen (app.js)
const state = { problem: false, differs: false, wait: "" };

const unit = () => box.currency || t("points");

function save() {
  showStatus({ noStorage: !store.save(tally) });
}

/** After every change: the sheets drawn again if `redraw` (the settings may follow the table),
 * saved at once, the totals worked out. */
function changed(redraw = false) {
  if (!tally) return; // put away meanwhile (a language's words came after New tally)
  steady(() => {
    if (redraw) keepFocus(drawTally);
    save();
    score();
  });
}

/** Shows `chosen` on its game's sheet; `home` is the screen "New tally" leads to. Another tab's
 * change to the tally on show is drawn in place. */
export async function openTally(chosen, home, relabel = () => {}) {
  relabelFrame = relabel;
  unreadable(chosen);
  const same = box && tally?.id === chosen.id && tally.game === chosen.game;
  tally = same ? merge(tally, chosen) : chosen;
  delete tally.result; // a finished tally taken up again is totalled afresh
  leave = home;
  if (same) {
    changed(true);
    return;
  }
  differ(false); // a tally opened (a follower's screen before it, say) is totalled on the phone
  drafts.clear();
  save();
  const cached = store.keptBox(tally.game);
  try {
    if (!cached) main.replaceChildren(h("p", { class: "muted", text: t("loadingBox") }));
    await useBox(cached || await loadBox(chosen.game));
  } catch (error) {
    if (error.status === 404) return unknownGame(chosen);
    // No network: tried again once it is back; a server that failed, after the wait it asked for.
    main.replaceChildren(h("p", { class: "msg", text: error.status ? failure(error) : error instanceof Offline ? t("noBox") : error.message }));
    const again = () => tally === chosen && box?.id !== chosen.game && openTally(chosen, home);
    if (error.status) setTimeout(again, (error.after > 0 ? error.after : 5) * 1000);
    else addEventListener("online", again, { once: true });
    return;
  }
  // A newer box from the server redraws the sheet; the values stay as they are.
  if (cached) {
    loadBox(chosen.game).then((fresh) => {
      if (tally?.id === chosen.id && JSON.stringify(fresh) !== JSON.stringify(box)) useBox(fresh);
    }).catch(() => {});
  }
}

/** A tally of a game the server does not know (restored from a newer release's file, say): it
 * says so, and New tally puts it back among the earlier ones and goes home; it is never asked
 * for again, which would hold the page on it at every start. */
function unknownGame(chosen) {
  main.replaceChildren(h("p", { class: "msg", text: t("unknownGame", { game: chosen.game }) }));
  fill(byId(ids.action), h("button", { type: "button", class: "new", text: t("newTally"), onclick: () => {
    showStatus({ noStorage: !store.archive({ ...chosen, result: null }) });
    closeTally();
    leave();
  } }));
}

/** A count saved unreadable before UNREADABLE was kept (NaN, which JSON saves as null: the only
 * null a count entered, with its time, can be) is unreadable still, not 0. */
function unreadable(saved) {
  for (const player of saved.players) {
    for (const key of Object.keys(player.at || {})) if (player.values[key] === null) player.values[key] = UNREADABLE;
  }
}

/** Why the server is out of reach, as the banner says it: no network (the phone says so), or a
 * network with no server answering on it. */
const away = (error) => (error instanceof Offline && !error.status && !navigator.onLine)
  || (state.differs ? "noAnswerDiffered" : "noAnswer");

async function loadBox(game) {
  try {
    const fresh = await getJSON(`${GAMES}/${game}`);
    store.remember(`box.${game}`, fresh);
    return fresh;
  } catch (error) {
    if (error instanceof Offline) showStatus({ offline: away(error) });
    else showStatus({ offline: false }); // the server answered
    throw error;
  }
}

/** grid.js, once its styles are in. */
async function gridModule() {
  const module = await import("./grid.js");
  await module.styled;
  return module;
}

async function useBox(data) {
  view = store.cached("view") === "grid" ? "grid" : "sheets";
  if (view === "grid") grid ??= await gridModule();
  sheet = await sheetFor(data);
  box = data;
  tally.name = box.name; // for Earlier tallies
  changed(true);
}

function drawTally() {
  told = null; // the standings' hidden line is drawn anew, empty: all of them are said next
  // The settings first: they may fill in the tally's defaults, which decide the groups.
  const settings = sheet.settings?.(box, tally, changed);
  groups = sheet.groups(box, tally);
  const name = item("game", box.id, box.name);
  document.title = `${name} · ${t("title")}`;
  fill(byId(ids.action), h("button", { type: "button", class: "new", text: t("newTally"), onclick: newTally }));
  fill(main,
    h("section", { class: "card intro", "aria-labelledby": ids.game },
      h("h2", { id: ids.game, text: name }), settings, addPlayerForm()),
    h("section", { id: ids.standings, class: "card", "aria-labelledby": ids.part(ids.standings, "h"),
                   hidden: !tally.players.length },
      h("h2", { id: ids.part(ids.standings, "h"), text: t("standings") }),
      h("p", { id: ids.note, class: "note", "aria-live": "polite" }),
      h("p", { id: ids.part(ids.standings, "said"), class: "vh", "aria-live": "polite" }),
      h("ol", { id: ids.ranking, class: "ranking" }),
      h("p", { id: ids.tie, class: "tie", hidden: true }),
      h("p", { id: ids.msg("players"), class: "msg", role: "alert" }),
      h("p", { id: ids.msg("general"), class: "msg", role: "alert" }),
      h("div", { id: ids.part(ids.standings, "share"), class: "tools", hidden: true },
        h("button", { type: "button", text: t("share"), onclick: () => shareWith("shareResult") }),
        h("button", { type: "button", text: t("bgStats"), onclick: () => shareWith("exportPlay") }))),
    tally.players.length ? views() : null,
    h("div", { id: ids.sheets, class: view }, view === "grid"
      ? grid.gridSheet(tally, { groups, unit: unit(), enter, tools: playerTools })
      : tally.players.map((player) => playerSheet(player, { groups, unit: unit(), enter, toggled, tools: playerTools(player) }))),
    // the page's language chosen here too (a player at the table reads the other): the tally is
    // drawn again in it, nothing lost
    h("section", { class: "card" }, languageField(() => {
      relabelFrame();
      changed(true);
    })),
  );
  // The grid's header row holds the totals and its pad takes the bar's place under the thumb;
  // with no player yet there is nothing for it to hold (an empty strip, an empty landmark).
  bar.hidden = view === "grid" || !tally.players.length;
  bar.setAttribute("aria-label", t("playersBar"));
  fill(bar, tally.players.map((p) => h("a", { href: `#${ids.sheet(p)}`, class: "chip" },
    h("span", { text: p.name }), h("b", { id: ids.chip(p), text: "–" }))));
  // Names too keep their words whole where smaller letters let them: "Christoph/er" on the bar,
  // "Sophi/e" in a column's head; then a name too long even so is shortened, at its own size.
  fitWords(document.querySelectorAll(".chip > span, .grid thead .who"), true);
  fitNames(document.querySelectorAll(".chip > span, .grid thead .who, .pad .at .who"));
  fitWords(document.querySelectorAll(".row .w, .grid tbody th .w, .tap .w, .player .head h2"));
  refresh();
  display();
}

/** The two ways of entering the counts, the one on show pressed. */
function views() {
  const button = (name, label) => h("button", { type: "button", id: ids.part("view", name), "aria-pressed": String(view === name), text: t(label),
    onclick: () => switchTo(name) });
  const switchTo = async (name) => {
    if (name === view) return;
    if (name === "grid") grid ??= await gridModule();
    view = name;
    store.remember("view", name);
    changed(true); // drawn again, and what is wrong said again where this view says it
  };
  return h("div", { class: "views", role: "group", "aria-label": t("views") },
    button("grid", "viewGrid"), button("sheets", "viewSheets"));
}

/** What a row says of itself and whether it is shown, on whichever view is on show. */
const refresh = () => (view === "grid" ? grid.refresh(tally.players, groups) : refreshRows(tally.players, groups));

/** What a player's breakdown gives the tie-break to compare, in words (games that have one). */
const figures = () => sheet.tieFigures && ((parts) => sheet.tieFigures(box, parts));

async function shareWith(how) {
  const result = settled()?.result; // read now: the counts may change while share.js loads
  if (!result) return say(t("notYetShared"));
  // The tie-break is said with the result, in the standings' words.
  const tie = store.entered(tally) ? tieWords(tally.game, result, figures()) : "";
  (await import("./share.js"))[how]({ tally, result, box, currency: box.currency, tie, setting: sheet.shared?.(box, tally) });
}

function enter(player, key, value) {
  player.values[key] = value;
  (player.at ??= {})[key] = Date.now(); // when: see merge
  // What the row's change undoes (a mission's tick, once another mission is chosen), drawn again.
  const clears = groups.flatMap((g) => g.rows).find((row) => row.key === key)?.clears;
  const cleared = Boolean(clears && player.values[clears]);
  if (cleared) {
    player.values[clears] = false;
    player.at[clears] = player.at[key];
  }
  changed(cleared);
}

/** This tab's tally and another tab's save of it, as one (README "The phone page"). */
function merge(mine, theirs) {
  const [base, other] = (mine.updated || 0) - (theirs.updated || 0) > 0 || (mine.updated === theirs.updated
    && JSON.stringify(mine) > JSON.stringify(theirs)) ? [mine, theirs] : [theirs, mine];
  const gone = [...new Set([...base.removed || [], ...other.removed || []])];
  for (const player of other.players) {
    const here = base.players.find((p) => p.id === player.id || sameName(p.name, player.name));
    if (!here && !full(base)) base.players.push(player);
    if (here?.id === player.id && (player.named || 0) > (here.named || 0)
        && !base.players.some((p) => p !== here && sameName(p.name, player.name))) {
      here.name = player.name; // renamed last in the other tab (unless a player there took it)
      here.named = player.named;
    }
    for (const [key, at] of Object.entries(here?.id === player.id && player.openedAt || {})) {
      if (at > (here.openedAt?.[key] || 0)) { // opened or closed there last
        here.open = { ...here.open, [key]: player.open[key] };
        here.openedAt = { ...here.openedAt, [key]: at };
      }
    }
    for (const [key, at] of Object.entries(here?.id === player.id && player.at || {})) {
      const was = here.at?.[key] || 0;
      if (at > was || (at === was && String(player.values[key]) > String(here.values[key]))) {
        here.values[key] = player.values[key];
        (here.at ??= {})[key] = at;
      }
    }
  }
  base.players = base.players.filter((p) => !gone.includes(p.id));
  if (gone.length) base.removed = gone;
  // A setting (sheet.js setting) changed there last: a save made here before this tab heard of
  // it took the bowls' order or the variant back whole.
  for (const [field, at] of Object.entries(other.setAt || {})) {
    if (at > (base.setAt?.[field] || 0)) {
      if (other[field] === undefined) delete base[field];
      else base[field] = other[field];
      base.setAt = { ...base.setAt, [field]: at };
    }
  }
  return base;
}

/** A dinosaur opened or closed, with when: another tab's save (merge) keeps the later. Drawn
 * again open, a section says so too, and nothing changes. */
function toggled(player, group, open) {
  if ((player.open?.[group.id] ?? null) === open) return;
  player.open = { ...player.open, [group.id]: open };
  player.openedAt = { ...player.openedAt, [group.id]: Date.now() };
  save();
}

// --- players: added, renamed, moved, removed ---------------------------------------------------

const full = (of = tally) => of.players.length >= (box.players?.max ?? Infinity);

/** A form that asks for a name no other player has: a new player's, or a player's new name,
 * tidied as the server keeps it. */
function nameForm({ player = null, label, button, done, cancel = null, disabled = false, note = "" }) {
  const id = ids.newName(player);
  return h("form", { class: player ? "rename" : "add", onsubmit: (e) => {
    e.preventDefault();
    const input = byId(id);
    const { name, problem } = nameFrom(input.value, player);
    byId(ids.msg(id)).textContent = problem || "";
    markInvalid(input, Boolean(problem));
    if (problem) return input.focus(); // where it is mended, its reason read with it
    drafts.delete(id);
    done(name);
  } },
  h("label", { for: id, text: label }),
  h("div", { class: "line" },
    // maxlength counts UTF-16 units (an emoji is 2), the server characters: tidyName counts as it does.
    h("input", { id, value: drafts.get(id) ?? player?.name, maxlength: 2 * NAME_LENGTH, autocomplete: "off",
                 autocapitalize: "words", enterkeyhint: "done", "aria-describedby": ids.msg(id), disabled,
                 oninput: (e) => {
                   drafts.set(id, e.target.value);
                   // a reason for the name typed before is for this one no more
                   if (e.target.getAttribute("aria-invalid")) {
                     markInvalid(e.target, false);
                     byId(ids.msg(id)).textContent = "";
                   }
                 } }),
    h("button", { class: "primary", text: button, disabled }),
    cancel && h("button", { type: "button", class: "quiet", text: t("cancel"), onclick: () => {
      drafts.delete(id);
      cancel();
    } })),
  // a note (the table is full) is no error, and is not shown as one
  h("p", { id: ids.msg(id), class: note ? "muted" : "msg", text: note, ...(!note && { role: "alert" }) }));
}

/** `typed` as the player's name is kept, `{ name }`, or why it cannot be, `{ problem }` in words:
 * what the server would refuse (a blank name, an invisible character…) or another player's name. */
function nameFrom(typed, player) {
  const { name, problem } = tidyName(typed);
  if (problem) return { problem: t(problem) };
  const same = tally.players.find((p) => p !== player && sameName(p.name, name));
  return same ? { problem: t("alreadyPlaying", { name: same.name }) } : { name };
}

function addPlayer(name, pick, tapped) {
  tally.players.push({ id: uid("p"), name, values: {} });
  store.rememberName(name);
  changed(true);
  // The button pressed, drawn again, took the focus: on to the name picked next, else the field
  // (not after a tap: the phone's keyboard would open).
  const picks = document.querySelectorAll(".pick");
  if (!full()) return document.activeElement === document.body && (picks[pick] || picks[pick - 1] || (tapped ? null : byId(ids.newName())))?.focus();
  // The table is complete: counting starts at the first player with nothing entered (not over a
  // count), and the page stays where it is.
  const first = tally.players.find((p) => !store.filled(p));
  if (view === "grid") grid.start(first);
  else byId(ids.sheet(first))?.querySelector("input")?.focus({ preventScroll: true });
}

function addPlayerForm() {
  // Names from earlier tallies come back to be picked rather than typed again, each as it is
  // added by hand: tidied, and none the server would refuse or another player has.
  const known = [];
  for (const earlier of full() ? [] : store.names()) {
    const { name } = tidyName(earlier);
    if (name && ![...tally.players.map((p) => p.name), ...known].some((n) => sameName(n, name))) known.push(name);
  }
  return h("div", {},
    nameForm({ label: t("playerName"), button: t("addPlayer"), disabled: full(), done: addPlayer,
               note: full() ? t("atMost", { game: item("game", box.id, box.name), max: box.players.max }) : "" }),
    known.length ? h("div", { class: "picks", role: "group", "aria-label": t("earlierPlayers") },
      known.map((name, i) => h("button", { type: "button", class: "pick", "aria-label": t("addNamed", { name }), text: `+ ${name}`,
        onclick: (e) => addPlayer(name, i, e.detail) }))) : null);
}

function playerTools(player) {
  if (drafts.has(ids.newName(player))) return renameFormFor(player); // a rename still being typed
  const index = tally.players.indexOf(player);
  const tools = [
    ["quiet", ids.up(player), "moveUp", "up", () => move(player, -1), index === 0],
    ["quiet", ids.down(player), "moveDown", "down", () => move(player, 1), index === tally.players.length - 1],
    ["quiet", ids.rename(player), "renameOf", "rename", () => renameForm(player)],
    ["quiet danger-text", null, "removeOf", "remove", () => remove(player)],
  ];
  return h("div", { class: "tools", id: ids.tools(player) }, tools.map(([look, id, label, text, onclick, disabled]) =>
    h("button", { type: "button", class: look, id, "aria-label": t(label, { name: player.name }), text: t(text), disabled, onclick })));
}

function move(player, delta) {
  const from = tally.players.indexOf(player);
  tally.players.splice(from, 1);
  tally.players.splice(from + delta, 0, player);
  changed(true);
  const button = byId(delta < 0 ? ids.up(player) : ids.down(player));
  (button.disabled ? byId(ids.rename(player)) : button).focus();
  byId(ids.sheet(player)).scrollIntoView({ block: "nearest" });
}

function renameForm(player) {
  drafts.set(ids.newName(player), player.name);
  byId(ids.tools(player)).replaceWith(renameFormFor(player));
  byId(ids.newName(player)).select();
}

function renameFormFor(player) {
  const form = nameForm({
    player, label: t("newNameFor", { name: player.name }), button: t("save"),
    done(name) {
      player.name = name;
      player.named = Date.now(); // when: see merge
      store.rememberName(name);
      changed(true);
      byId(ids.rename(player)).focus();
    },
    cancel() {
      byId(ids.tools(player)).replaceWith(playerTools(player));
      byId(ids.rename(player)).focus();
    },
  });
  form.id = ids.tools(player); // where the player's buttons stand, found there again when done
  return form;
}

async function remove(player) {
  if (!(await ask(t("removeAsk", { name: player.name }), t("removeOf", { name: player.name })))) return;
  const at = tally.players.indexOf(player);
  tally.players = tally.players.filter((p) => p !== player);
  tally.removed = [...tally.removed || [], player.id]; // not brought back by another tab's save (merge)
  drafts.delete(ids.newName(player));
  changed(true);
  // the keyboard goes on to the player who took the place (or the one before, or a new name)
  const next = tally.players[at] || tally.players[at - 1];
  byId(next ? ids.rename(next) : ids.newName())?.focus();
}

async function newTally() {
  if (!tally) return; // put away already
  // A tally shared live stays shared once a new one is started: it is kept in the history, and its
  // followers may still want its final totals; its share ends when it is stopped, or when the
  // tally is deleted from the history (live.js).
  if (!tally.players.length) store.clear();
  else if (await ask(t("newTallyAsk"), t("startNew"))) showStatus({ noStorage: !store.archive({ ...tally, result: settled()?.result ?? null }) });
  else return;
  closeTally();
  leave();
}

/** Puts the tally on show away (here, or in another tab): nothing more is asked of the server
 * or said of it, and no answer still on its way is drawn. */
export function closeTally() {
  server.forget();
  state.problem = false;
  differ(false);
  drafts.clear();
  clearTimeout(saying); // nothing is said of a tally put away
  tally = box = shown = asked = null;
  main.replaceChildren(); // none of its fields left to change while the next screen loads
  byId(ids.action).replaceChildren();
}

// --- totals: worked out here at once, confirmed by the server -----------------------------------

/** The phone scorer's answer to `sent`: { result } or { errors }. */
function judge(sent) {
  try {
    return { result: sheet.score(box, structuredClone(sent)) };
  } catch (error) {
    if (!error.errors) throw error;
    return { errors: error.errors };
  }
}

/** `by` "phone" or "server": who answered `sent`. */
function show({ result, errors }, sent, by) {
  state.problem = Boolean(errors);
  if (errors) showProblems(errors, { tally, groups, sent });
  else clearProblems();
  shown = errors ? null : { result, request: sent, sent: canonical(sent), by };
  display();
}

/** The answer to the counts as they stand, or null while there is none to trust: a count to put
 * right, a refusal, or, once the server has answered otherwise than this phone, no answer of the
 * server's yet to these counts. Only its result is shown as final, shared, exported or kept. */
function settled() {
  if (!shown || state.problem || shown.sent !== asked) return null;
  return state.differs && shown.by !== "server" ? null : shown;
}

function display() {
  const answer = settled();
  showResult(tally, answer?.result, {
    // player i's breakdown and tie-break figures, in words, from what was sent for them
    lines: (parts, i) => sheet.breakdown(box, parts, answer.request.players[i], answer.request),
    figures: figures(),
    ranked: store.entered(tally), currency: box.currency,
  });
  if (view === "grid") grid.shown(tally, answer?.result, store.entered(tally));
  showNote();
  clearTimeout(saying);
  if (answer && store.entered(tally)) saying = setTimeout(sayStandings, 1000, answer.result, box.currency);
  else sayStandings(null); // nothing stands: no standings left behind for a screen reader to find
}

let saying = 0;
let told = null; // the standings last said
/** The standings, said to a screen reader once the counts settle rather than at every tap; of
 * the tally on show when they settled, whatever has happened since: all of them, or where no
 * place changed, the totals that did (spoken). */
function sayStandings(result, currency) {
  const text = result ? spoken(result, currency, told) : "";
  told = result;
  if (text || !result) sayText(text);
}

/** Says `text` to a screen reader, in the standings' hidden line (none: the tally was left). */
function sayText(text) {
  const el = byId(ids.part(ids.standings, "said"));
  if (el && el.textContent !== text) el.textContent = text;
}

/** Whether `n` is a whole number within the row's limits; a limit left out (null) is none, not
 * the 0 that `n >= null` would compare with. */
const fits = (row, n) => Number.isInteger(n) && (row.min == null || n >= row.min) && (row.max == null || n <= row.max);

/** Counts that are no whole number within the field's limits: said by the field, in the page's
 * words, and nothing is totalled until they are put right. */
function badCounts() {
  const bad = [];
  tally.players.forEach((player) => groups.forEach((group) => group.rows.forEach((row) => {
    const raw = player.values[row.key];
    if (row.kind || raw == null || raw === "" || fits(row, number(raw))) return;
    const limits = row.min == null ? "whole" : row.max == null ? "wholeFrom" : "wholeFromTo";
    bad.push([[byId(ids.field(player, row))], group.skeleton ? ids.groupMsg(player, group) : ids.msg(ids.field(player, row)),
      [{ code: limits, min: row.min, max: row.max }]]);
  })));
  return bad;
}

function score() {
  refresh();
  if (!tally.players.length) {
    server.forget();
    shown = asked = null;
    return entering(null);
  }
  const bad = badCounts();
  state.wait = sheet.waiting?.(tally); // a setting half made (DIG's bowls being tapped)
  if (bad.length || state.wait) {
    server.forget();
    asked = null;
    clearProblems(() => bad.forEach(([inputs, msg, problems]) => mark(inputs, msg, problems)));
    state.problem = true;
    display();
    // what is wrong with the count, said as it is typed: the note above says the same words for
    // every count, and so was heard for the first alone
    const [[input], msg] = bad[0] || [[]];
    if (input) sayText(`${input.labels?.[0]?.textContent || input.getAttribute("aria-label") || ""}: ${byId(msg)?.textContent}`);
    return entering(null);
  }
  const sent = sheet.request(box, tally, groups);
  asked = canonical(sent);
  const answer = judge(sent);
  show(answer, sent, "phone");
  server.ask(`${GAMES}/${tally.game}/score`, sent);
  // Nothing entered yet, followers are told nothing either: a sheet sent is one to rank, 0–0 too.
  entering(answer.errors || !store.entered(tally) ? null : sent);
}

/** Tells the page (a live share, live.js) the calculator's request the counts make as they
 * stand, or null while they make none: drawn first, so the screen is there to be added to. */
const entering = (request) => dispatchEvent(new CustomEvent("tally-entered", { detail: { tally, request } }));

/** JSON with every object's keys in order, so that two answers compare by content. */
const canonical = (value) => JSON.stringify(value, (_, v) =>
  (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v));

/** What a player reads of a result: a field added or a tie worded otherwise is no difference. */
const read = (r) => r && canonical([r.winners, r.players.map((p) => [p.name, p.total, p.rank])]);

/** The server's answer to `sent` against the phone's: the server's stands, a difference is said.
 * An answer to counts changed since is dropped: it would show totals of counts no longer there. */
const confirm = (sent, server) => steady(() => confirmed(sent, server));

function confirmed(sent, server) {
  showStatus({ offline: false });
  if (canonical(sent) !== asked) return;
  const mine = judge(sent);
  const agree = server.errors
    ? canonical(Object.keys(mine.errors || {}).sort()) === canonical(Object.keys(server.errors).sort())
    : read(mine.result) === read(server.result);
  differ(!agree);
  if (!agree) console.warn("Digsite: the server's answer differs from this phone's; the server's is shown.", { phone: mine, server });
  // Agreed refusals stay as the phone words them, in the page's language.
  if (!agree || !server.errors) show(server, sent, "server");
  else display();
}

const server = scorer({
  onResult: (result, sent) => confirm(sent, { result }),
  onProblem: (problem, sent) => confirm(sent, { errors: problem.body.errors }),
  onOffline: (error) => showStatus({ offline: away(error) }),
});

/** Whether the server's last answer contradicted the phone. Offline, the phone totals the
 * counts itself, unless it did: then they wait for the server, and the status line says so. */
function differ(differs) {
  state.differs = differs;
  offlineMeans(differs ? "offlineDiffered" : "offline");
}

function showNote() {
  // Only lasting states get words: a line appearing on every keystroke would move the page.
  const pending = shown && !settled(); // answered by this phone, which the server once contradicted
  const text = state.problem ? state.wait || t("waitingCount") : pending ? t("waitingServer") : state.differs ? t("serverDiffers") : "";
  const note = byId(ids.note);
  if (note && note.textContent !== text) note.textContent = text;
  main.classList.toggle("stale", Boolean(tally?.players.length) && !settled());
}

stepButtons(main);
