// The tally screen: the game's settings, the players, their counts and the bar at the bottom.
// Every change is saved on the phone at once and sent to the calculator; the page scores nothing.
import { byId, fill, h, ids, markInvalid, showStatus, status, uid } from "./dom.js";
import { clearProblems, showProblems } from "./errors.js";
import { GAMES, Offline, getJSON, scorer } from "./net.js";
import { showResult } from "./results.js";
import { number, sheetFor } from "./sheet.js";
import * as store from "./store.js";

const main = byId(ids.main);
const bar = byId(ids.bar);

let tally = null; // the tally on the screen, saved on every change
let box = null; // its game's box data
let sheet = null; // its scoresheet (sheets/{game}.js)
let groups = []; // the sheet's groups of fields for the current settings
let leave = null; // where "New tally" leads
const state = { pending: false, problem: null };

function save() {
  showStatus({ noStorage: !store.save(tally) });
}

/** After every change: saved at once, the sheets drawn again if `redraw`, the totals asked for. */
function changed(redraw = false) {
  save();
  if (redraw) redrawSheets();
  score();
}

/** Shows `chosen` on its game's sheet; `home` is the screen "New tally" leads to. */
export async function openTally(chosen, home) {
  tally = chosen;
  leave = home;
  save();
  const cached = store.cached(`box.${tally.game}`);
  try {
    if (!cached) main.replaceChildren(h("p", { class: "muted", text: "Loading the box…" }));
    await useBox(cached || await loadBox(chosen.game));
  } catch (error) {
    main.replaceChildren(h("p", { class: "msg", text: error instanceof Offline
      ? "The box of this game is not on this phone yet and the server cannot be reached. "
        + "The page tries again when the connection is back."
      : error.message }));
    addEventListener("online", () => openTally(chosen, home), { once: true });
    return;
  }
  // A newer box from the server redraws the sheet; the values stay as they are.
  if (cached) {
    loadBox(chosen.game).then((fresh) => {
      if (tally === chosen && JSON.stringify(fresh) !== JSON.stringify(box)) useBox(fresh);
    }).catch(() => {});
  }
}

async function loadBox(game) {
  try {
    const fresh = await getJSON(`${GAMES}/${game}`);
    store.remember(`box.${game}`, fresh);
    return fresh;
  } catch (error) {
    if (error instanceof Offline) showStatus({ offline: true });
    throw error;
  }
}

async function useBox(data) {
  sheet = await sheetFor(data);
  box = data;
  Object.assign(tally, { name: box.name, unit: box.currency || "points" }); // for Earlier tallies
  drawTally();
  save();
  score(true);
}

function drawTally() {
  // The settings first: they may fill in the tally's defaults, which decide the groups.
  const settings = sheet.settings?.(box, tally, changed);
  groups = sheet.groups(box, tally);
  document.title = `${box.name} · Digsite scorer`;
  fill(main,
    h("section", { class: "card intro", "aria-labelledby": ids.game },
      h("h2", { id: ids.game, text: box.name }), settings, addPlayerForm()),
    h("section", { id: ids.standings, class: "card", "aria-labelledby": ids.part(ids.standings, "h"),
                   hidden: !tally.players.length },
      h("h2", { id: ids.part(ids.standings, "h"), text: "Standings" }),
      h("p", { id: ids.note, class: "note", "aria-live": "polite" }),
      h("ol", { id: ids.ranking, class: "ranking" }),
      h("p", { id: ids.tie, class: "tie", hidden: true }),
      h("p", { id: ids.msg("players"), class: "msg", role: "alert" }),
      h("p", { id: ids.msg("general"), class: "msg", role: "alert" })),
    h("div", { id: ids.sheets }, tally.players.map(playerSheet)),
  );
  drawBar();
}

function redrawSheets() {
  groups = sheet.groups(box, tally);
  byId(ids.sheets).replaceChildren(...tally.players.map(playerSheet));
  byId(ids.standings).hidden = !tally.players.length;
  refreshAddForm();
  drawBar();
}

// --- players: added, renamed, moved, removed ---------------------------------------------------

const full = () => tally.players.length >= (box.players?.max ?? Infinity);

/** A form that asks for a name no other player has: a new player's, or a player's new name. */
function nameForm({ player = null, label, button, done, cancel = null, disabled = false, note = "" }) {
  const id = ids.newName(player);
  return h("form", { class: player ? "rename" : "add", onsubmit: (e) => {
    e.preventDefault();
    const input = byId(id);
    const name = input.value.trim();
    const problem = nameProblem(name, player);
    byId(ids.msg(id)).textContent = problem || "";
    markInvalid(input, Boolean(problem));
    if (!problem) done(name, input);
  } },
  h("label", { for: id, text: label }),
  h("div", { class: "line" },
    h("input", { id, value: player?.name, maxlength: 40, autocomplete: "off", autocapitalize: "words",
                 enterkeyhint: "done", "aria-describedby": ids.msg(id), disabled }),
    h("button", { class: "primary", text: button, disabled }),
    cancel && h("button", { type: "button", class: "quiet", text: "Cancel", onclick: cancel })),
  h("p", { id: ids.msg(id), class: "msg", text: note }));
}

function nameProblem(name, player) {
  if (!name) return "Enter a name.";
  if (name.length > 40) return "A name has at most 40 characters.";
  const same = tally.players.find((p) => p !== player && p.name.toLowerCase() === name.toLowerCase());
  return same ? `${same.name} is already playing; give each player a different name.` : null;
}

function addPlayerForm() {
  return nameForm({
    label: "Player name", button: "Add player", disabled: full(),
    note: full() ? `${box.name} is for at most ${box.players.max} players.` : "",
    done(name, input) {
      const player = { id: uid("p"), name, values: {} };
      tally.players.push(player);
      input.value = "";
      byId(ids.standings).hidden = false;
      byId(ids.sheets).append(playerSheet(player));
      refreshAddForm();
      drawBar();
      changed();
    },
  });
}

/** The form again, once the game is full or has room again. */
function refreshAddForm() {
  const form = main.querySelector(".add");
  if (full() === byId(ids.newName()).disabled) return;
  const focused = form.contains(document.activeElement);
  form.replaceWith(addPlayerForm());
  if (focused) (full() ? byId(ids.sheets).querySelector(".player:last-child input") : byId(ids.newName()))?.focus();
}

function playerTools(player) {
  const index = tally.players.indexOf(player);
  const tools = [
    ["quiet", ids.up(player), `Move ${player.name} up`, "↑ Up", () => move(player, -1), index === 0],
    ["quiet", ids.down(player), `Move ${player.name} down`, "↓ Down", () => move(player, 1), index === tally.players.length - 1],
    ["quiet", ids.rename(player), `Rename ${player.name}`, "Rename", () => renameForm(player)],
    ["quiet danger-text", null, `Remove ${player.name}`, "Remove", () => remove(player)],
  ];
  return h("div", { class: "tools", id: ids.tools(player) }, tools.map(([look, id, label, text, onclick, disabled]) =>
    h("button", { type: "button", class: look, id, "aria-label": label, text, disabled, onclick })));
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
  const form = nameForm({
    player, label: `New name for ${player.name}`, button: "Save",
    done(name) {
      player.name = name;
      changed(true);
      byId(ids.rename(player)).focus();
    },
    cancel() {
      form.replaceWith(playerTools(player));
      byId(ids.rename(player)).focus();
    },
  });
  byId(ids.tools(player)).replaceWith(form);
  byId(ids.newName(player)).select();
}

async function remove(player) {
  if (!(await ask(`Remove ${player.name} and everything entered for them?`, `Remove ${player.name}`))) return;
  tally.players = tally.players.filter((p) => p !== player);
  changed(true);
}

function ask(question, action) {
  const dialog = byId(ids.confirm);
  byId(ids.part(ids.confirm, "text")).textContent = question;
  byId(ids.part(ids.confirm, "ok")).textContent = action;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true }));
}

// --- a player's sheet: total, place, breakdown and the counts ----------------------------------

function playerSheet(player) {
  return h("section", { class: "card player", id: ids.sheet(player), "aria-labelledby": ids.name(player) },
    h("div", { class: "head" },
      h("h2", { id: ids.name(player), text: player.name }),
      h("p", { class: "score" },
        h("output", { id: ids.total(player), "aria-label": `${player.name} total`, "aria-live": "off", text: "–" }),
        h("span", { class: "unit", text: ` ${tally.unit}` }))),
    h("p", { id: ids.rank(player), class: "rank" }),
    h("details", { class: "breakdown" },
      h("summary", { text: "Breakdown" }),
      h("dl", { id: ids.breakdown(player) })),
    h("p", { id: ids.msg(ids.sheet(player)), class: "msg" }),
    groups.map((group) => fieldGroup(player, group)),
    playerTools(player));
}

function fieldGroup(player, group) {
  const msgId = ids.groupMsg(player, group);
  const rows = group.rows.map((row) => fieldRow(player, row, group.skeleton ? msgId : null));
  const message = h("p", { id: msgId, class: "msg" });
  if (!group.skeleton) {
    return h("fieldset", { class: "group" }, h("legend", { text: group.legend }), rows, message);
  }
  // A skeleton is tapped open by the player holding some of it; its positions read left to right.
  const held = heldIn(player, group);
  const open = player.open?.[group.id] ?? held > 0;
  const count = h("span", { class: "muted", text: heldText(held) });
  return h("details", { class: "group skeleton", open, ontoggle: (e) => {
    player.open = { ...player.open, [group.id]: e.target.open };
    save();
  }, oninput: () => { count.textContent = heldText(heldIn(player, group)); } },
  h("summary", {}, h("span", { text: group.legend }), count),
  h("fieldset", {}, h("legend", { class: "vh", text: `${player.name} ${group.legend}` }),
    h("div", { class: "cells" }, rows)),
  message);
}

const heldIn = (player, group) => group.rows.reduce((n, row) => n + Math.max(0, number(player.values[row.key]) || 0), 0);
const heldText = (n) => (n ? `${n} tile${n === 1 ? "" : "s"}` : "");

function fieldRow(player, row, groupMsg) {
  const id = ids.field(player, row);
  const value = player.values[row.key];
  // What is entered is kept at once; a skeleton's count of tiles held hears it after.
  const enter = (e) => {
    player.values[row.key] = e.target.type === "checkbox" ? e.target.checked : e.target.value;
    changed();
  };
  if (row.kind === "mission") {
    const condition = (mission) => row.options.find((m) => m.id === mission)?.condition || "";
    const hint = h("p", { id: ids.hint(id), class: "muted", text: condition(value) });
    return h("div", { class: "field" },
      // The group's legend shows the word; the label names the player too.
      h("label", { for: id, class: "vh", text: `${player.name} ${row.word}` }),
      h("select", { id, "aria-describedby": `${ids.hint(id)} ${ids.msg(id)}`, oninput: (e) => {
        hint.textContent = condition(e.target.value);
        enter(e);
      } },
      h("option", { value: "", text: "No mission" }),
      row.options.map((m) => h("option", { value: m.id, text: `${m.name} (${m.bonus} ${tally.unit})`, selected: m.id === value }))),
      hint, h("p", { id: ids.msg(id), class: "msg" }));
  }
  const lead = h("span", { class: "vh", text: `${player.name} ${row.lead || ""}` });
  if (row.kind === "check") {
    return h("div", { class: "check" },
      h("input", { type: "checkbox", id, oninput: enter, checked: Boolean(value) }),
      h("label", { for: id }, lead, h("span", { class: "w", text: row.word })));
  }
  const label = h("label", { for: id, id: ids.label(id) }, lead, h("span", { class: "w", text: row.short || row.word }));
  const step = (delta, text, name) => h("button", {
    type: "button", class: "step", tabindex: "-1", "data-step": delta, "data-for": id,
    "aria-label": name, "aria-describedby": ids.label(id), text,
  });
  const input = h("input", {
    type: "number", id, inputmode: row.min === 0 ? "numeric" : null, step: 1, min: row.min ?? null, max: row.max ?? null,
    value: value ?? "0", oninput: enter, "aria-describedby": [row.hint && ids.hint(id), groupMsg || ids.msg(id)].filter(Boolean).join(" "),
  });
  const swatch = row.swatch ? h("span", { class: "swatch", "aria-hidden": "true" }) : null;
  swatch?.style.setProperty("--swatch", row.swatch);
  if (groupMsg) {
    // A position of a skeleton: a narrow cell with + above and − below.
    return h("div", { class: "cell" }, label,
      step(1, "+", "One more"), input, step(-1, "−", "One fewer"),
      row.hint ? h("span", { id: ids.hint(id), class: "muted", title: "Value of a loose tile", text: `${row.hint} pt` }) : null);
  }
  return h("div", { class: "row" },
    h("div", { class: "what" }, swatch, label,
      row.hint ? h("span", { id: ids.hint(id), class: "hint", text: row.hint }) : null),
    step(-1, "−", "One fewer"), input, step(1, "+", "One more"),
    h("p", { id: ids.msg(id), class: "msg" }));
}

main.addEventListener("click", (e) => {
  const button = e.target.closest("[data-step]");
  if (!button) return;
  const input = byId(button.dataset.for);
  let value = (Math.trunc(Number(input.value)) || 0) + Number(button.dataset.step);
  if (input.min !== "") value = Math.max(Number(input.min), value);
  if (input.max !== "") value = Math.min(Number(input.max), value);
  input.value = String(value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
});
main.addEventListener("focusin", (e) => {
  if (e.target.type === "number") e.target.select();
});

// --- the bar at the bottom: a chip for each player, and a new tally -----------------------------

function drawBar() {
  bar.hidden = false;
  fill(bar,
    h("div", { class: "chips" },
      tally.players.length ? h("a", { href: `#${ids.standings}`, class: "chip", text: "Standings" }) : null,
      tally.players.map((p) => h("a", { href: `#${ids.sheet(p)}`, class: "chip" },
        h("span", { text: p.name }), h("b", { id: ids.chip(p) })))),
    h("button", { type: "button", class: "new", text: "New tally", onclick: newTally }));
  if (tally.result) showResult(tally, tally.result);
}

async function newTally() {
  const question = "Start a new tally? This one is kept under Earlier tallies on this phone.";
  if (!tally.players.length) store.clear();
  else if (await ask(question, "Start new tally")) showStatus({ noStorage: !store.archive(tally) });
  else return;
  scores.forget();
  tally = null;
  settle({ problem: null, offline: false });
  leave();
}

// --- totals: asked of the calculator after every change -----------------------------------------

/** Where the totals stand: `pending` while a request is out, `problem` while one is refused,
 * `offline` while the server cannot be reached. */
function settle({ offline, ...change }) {
  Object.assign(state, { pending: false, ...change });
  if (offline != null) showStatus({ offline });
  showNote();
}

const scores = scorer({
  onPending: () => settle({ pending: true }),
  onResult(result) {
    tally.result = result;
    save();
    clearProblems();
    showResult(tally, result);
    settle({ problem: null, offline: false });
  },
  onProblem(problem, sent) {
    showProblems(problem.body.errors || { "": [problem.message] }, { tally, groups, sent });
    settle({ problem, offline: false });
  },
  onOffline: () => settle({ offline: true }),
});

function score(now = false) {
  if (!tally.players.length) {
    scores.forget();
    tally.result = null;
    return;
  }
  scores.ask(`${GAMES}/${tally.game}/score`, sheet.request(box, tally, groups), now);
}

function showNote() {
  // Only lasting states get words: a line appearing on every keystroke would move the page.
  const text = state.problem ? "Totals are waiting for the count marked below."
    : status.offline ? "Totals are not up to date: the server cannot be reached." : "";
  const note = byId(ids.note);
  if (note && note.textContent !== text) note.textContent = text;
  main.classList.toggle("stale", Boolean(text) || state.pending);
}
