// The scorer page: choose a game, add the players, tally what each holds. Every change is saved
// on the phone at once and sent to the calculator; the page itself scores nothing.
import { Offline, getJSON, scorer } from "./net.js";
import { number, rowsNamedIn, sheetFor, variants, words } from "./sheet.js";
import * as store from "./store.js";

const API = "/api/v1/games";
const OFFLINE = "Offline — totals will update when the connection is back";
const $ = (selector) => document.querySelector(selector);
const main = $("#main");
const bar = $("#bar");
const banner = $("#status");

let tally = store.load(); // the tally in progress, saved on every change
let box = null; // its game's box data
let sheet = null; // its scoresheet, drawn from the box
let groups = []; // the sheet's groups of fields for the current settings
const state = { pending: false, offline: false, problem: null, noStorage: false };

/** Builds an element: attributes (on* are listeners, `text` the content), then children. */
function h(tag, attributes = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value == null || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "text") el.textContent = value;
    else if (name === "value" || name === "checked") el[name] = value;
    else el.setAttribute(name, value === true ? "" : value);
  }
  el.append(...children.flat().filter((c) => c != null && c !== false));
  return el;
}

/** Replaces an element's content, skipping the parts that are not there. */
const fill = (el, ...children) => el.replaceChildren(...children.flat().filter((c) => c != null && c !== false));
const minus = (n) => (n < 0 ? `−${-n}` : String(n));
const ordinal = (n) => {
  const tens = n % 100;
  const suffix = tens > 10 && tens < 14 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
};
const fieldId = (player, row) => `${player.id}-${row.key.replace(/[^\w-]/g, "-")}`;
const uid = (prefix) => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

function save() {
  state.noStorage = !store.save(tally);
  showBanner();
}

function showBanner() {
  const lines = [];
  if (state.offline) lines.push(OFFLINE);
  if (state.noStorage) lines.push("This phone is not saving the tally: its storage is full or blocked.");
  const text = lines.join(" · ");
  if (banner.textContent !== text) banner.textContent = text;
}

function setOffline(offline) {
  state.offline = offline;
  showBanner();
}

// --- confirming before anything is lost ---------------------------------------------------------

function ask(question, action) {
  const dialog = $("#confirm");
  $("#confirm-text").textContent = question;
  $("#confirm-ok").textContent = action;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.showModal();
  });
}

// --- home: choose a game, reopen a finished tally ----------------------------------------------

async function showHome() {
  bar.hidden = true;
  document.title = "Digsite scorer";
  let catalogue = store.cached("games");
  const draw = () => {
    const finished = store.history();
    fill(main,
      h("section", { class: "card", "aria-labelledby": "choose" },
        h("h2", { id: "choose", text: "Choose a game" }),
        catalogue
          ? h("div", { class: "games" }, catalogue.games.map((game) =>
            h("button", { type: "button", class: "game", text: game.name, onclick: () => startTally(game.id) })))
          : h("p", { class: "muted", text: "Waiting for the list of games…" })),
      finished.length ? h("section", { class: "card", "aria-labelledby": "earlier" },
        h("h2", { id: "earlier", text: "Earlier tallies" }),
        h("ul", { class: "history" }, finished.map((old) => h("li", {}, h("button", {
          type: "button", class: "old", onclick: () => reopen(old.id),
        }, h("strong", { text: old.name || old.game }), " ",
        h("span", { class: "muted", text: new Date(old.updated).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) }),
        h("span", { class: "who", text: summary(old) })))))) : null,
    );
  };
  draw();
  try {
    catalogue = await getJSON(API);
    store.remember("games", catalogue);
    setOffline(false);
    if (!tally?.game) draw();
  } catch (error) {
    if (error instanceof Offline) setOffline(true);
    if (!catalogue) {
      main.append(h("p", { class: "msg", text: error instanceof Offline
        ? "The server cannot be reached; the games appear when the connection is back." : error.message }));
      addEventListener("online", showHome, { once: true });
    }
  }
}

function summary(old) {
  const unit = old.unit ? ` ${old.unit}` : "";
  return old.players.map((p) => {
    const scored = old.result?.players.find((r) => r.name === p.name);
    return scored ? `${p.name} ${minus(scored.total)}${unit}` : p.name;
  }).join(" · ") || "no players";
}

async function startTally(game) {
  tally = { id: uid("t"), game, players: [], created: Date.now() };
  save();
  await openTally();
  $("#new-name")?.focus();
}

async function reopen(id) {
  tally = store.reopen(id);
  if (tally) await openTally();
  else showHome();
}

// --- the tally ---------------------------------------------------------------------------------

async function loadBox() {
  const cachedBox = store.cached(`box.${tally.game}`);
  try {
    const fresh = await getJSON(`${API}/${tally.game}`);
    store.remember(`box.${tally.game}`, fresh);
    return fresh;
  } catch (error) {
    if (error instanceof Offline) setOffline(true);
    if (cachedBox) return cachedBox;
    throw error;
  }
}

async function openTally() {
  const cachedBox = store.cached(`box.${tally.game}`);
  if (cachedBox) {
    useBox(cachedBox);
    // A newer box from the server redraws the sheet; the values stay as they are.
    loadBox().then((fresh) => {
      if (JSON.stringify(fresh) !== JSON.stringify(box)) useBox(fresh);
    }).catch(() => {});
    return;
  }
  main.replaceChildren(h("p", { class: "muted", text: "Loading the box…" }));
  try {
    useBox(await loadBox());
  } catch (error) {
    main.replaceChildren(h("p", { class: "msg", text: error instanceof Offline
      ? "The box of this game is not on this phone yet and the server cannot be reached. "
        + "The page tries again when the connection is back."
      : error.message }));
    addEventListener("online", openTally, { once: true });
  }
}

function useBox(data) {
  box = data;
  sheet = sheetFor(box);
  tally.name = box.name;
  tally.unit = sheet.unit;
  if (sheet.settings === "variant") tally.variant ??= variants(box)[0]?.id;
  if (sheet.settings === "bowls") tally.bowls ??= [...box.bowls];
  save();
  drawTally();
  if (tally.result) showResult(tally.result);
  score(true);
}

function drawTally() {
  groups = sheet.groups(box, tally);
  document.title = `${box.name} · Digsite scorer`;
  fill(main,
    h("section", { class: "card intro", "aria-labelledby": "game" },
      h("h2", { id: "game", text: box.name }),
      settings(),
      addPlayerForm()),
    h("section", { id: "standings", class: "card", "aria-labelledby": "standings-h", hidden: !tally.players.length },
      h("h2", { id: "standings-h", text: "Standings" }),
      h("p", { id: "score-note", class: "note", "aria-live": "polite" }),
      h("ol", { id: "ranking", class: "ranking" }),
      h("p", { id: "tie", class: "tie", hidden: true }),
      h("p", { id: "players-msg", class: "msg", role: "alert" }),
      h("p", { id: "general-msg", class: "msg", role: "alert" })),
    h("div", { id: "sheets" }, tally.players.map(playerSheet)),
  );
  drawBar();
}

function settings() {
  if (sheet.settings === "variant" && variants(box).length) {
    return h("div", { class: "field" },
      h("label", { for: "variant", text: "Variant" }),
      h("select", { id: "variant", "aria-describedby": "variant-msg", onchange: (e) => {
        tally.variant = e.target.value;
        save();
        redrawSheets();
        score();
      } }, variants(box).map((v) => h("option", { value: v.id, text: v.name, selected: v.id === tally.variant }))),
      h("p", { id: "variant-msg", class: "msg" }));
  }
  if (sheet.settings === "bowls") {
    return h("fieldset", { class: "bowls", "aria-describedby": "bowls-msg" },
      h("legend", { text: "Bowls, from the Doghouse out" }),
      tally.bowls.map((colour, i) => h("div", { class: "bowl" },
        h("label", { for: `bowl-${i + 1}`, text: `Bowl ${i + 1}` }),
        h("select", { id: `bowl-${i + 1}`, "aria-describedby": `bowl-${i + 1}-points`, onchange: (e) => setBowl(i, e.target.value) },
          box.colours.map((c) => h("option", { value: c, text: words(c), selected: c === colour }))),
        h("span", { id: `bowl-${i + 1}-points`, class: "muted", text: `${box.bowl_points[i]} per bone` }))),
      h("p", { id: "bowls-msg", class: "msg" }));
  }
  return null;
}

/** Each colour goes in one bowl: choosing a colour swaps it with the bowl that had it. */
function setBowl(index, colour) {
  const other = tally.bowls.indexOf(colour);
  if (other >= 0 && other !== index) tally.bowls[other] = tally.bowls[index];
  tally.bowls[index] = colour;
  tally.bowls.forEach((c, i) => { $(`#bowl-${i + 1}`).value = c; });
  save();
  score();
}

function addPlayerForm() {
  const full = tally.players.length >= (box.players?.max ?? Infinity);
  return h("form", { class: "add", onsubmit: (e) => {
    e.preventDefault();
    const input = $("#new-name");
    const name = input.value.trim();
    const problem = nameProblem(name);
    $("#new-name-msg").textContent = problem || "";
    input.toggleAttribute("aria-invalid", Boolean(problem));
    if (problem) return;
    const player = { id: uid("p"), name, values: {} };
    tally.players.push(player);
    save();
    input.value = "";
    $("#standings").hidden = false;
    $("#sheets").append(playerSheet(player));
    refreshAddForm();
    drawBar();
    score();
  } },
  h("label", { for: "new-name", text: "Player name" }),
  h("div", { class: "line" },
    h("input", { id: "new-name", maxlength: 40, autocomplete: "off", autocapitalize: "words",
                 enterkeyhint: "done", "aria-describedby": "new-name-msg", disabled: full }),
    h("button", { class: "primary", text: "Add player", disabled: full })),
  h("p", { id: "new-name-msg", class: "msg", text: full ? `${box.name} is for at most ${box.players.max} players.` : "" }));
}

/** The form again, once the game is full or has room again. */
function refreshAddForm() {
  const form = $(".add");
  const full = tally.players.length >= (box.players?.max ?? Infinity);
  if (full === $("#new-name").disabled) return;
  const focused = form.contains(document.activeElement);
  form.replaceWith(addPlayerForm());
  if (focused) $(full ? "#sheets .player:last-child input" : "#new-name")?.focus();
}

function nameProblem(name, player = null) {
  if (!name) return "Enter a name.";
  if (name.length > 40) return "A name has at most 40 characters.";
  const same = tally.players.find((p) => p !== player && p.name.toLowerCase() === name.toLowerCase());
  return same ? `${same.name} is already playing; give each player a different name.` : null;
}

function redrawSheets() {
  groups = sheet.groups(box, tally);
  $("#sheets").replaceChildren(...tally.players.map(playerSheet));
  $("#standings").hidden = !tally.players.length;
  refreshAddForm();
  if (tally.result) showResult(tally.result);
  drawBar();
}

function playerSheet(player) {
  const pid = player.id;
  return h("section", { class: "card player", id: pid, "aria-labelledby": `${pid}-name` },
    h("div", { class: "head" },
      h("h2", { id: `${pid}-name`, text: player.name }),
      h("p", { class: "score" },
        h("output", { id: `${pid}-total`, "aria-label": `${player.name} total`, "aria-live": "off", text: "–" }),
        h("span", { class: "unit", text: ` ${sheet.unit}` }))),
    h("p", { id: `${pid}-rank`, class: "rank" }),
    h("details", { class: "breakdown" },
      h("summary", { text: "Breakdown" }),
      h("dl", { id: `${pid}-breakdown` })),
    h("p", { id: `${pid}-msg`, class: "msg" }),
    groups.map((group) => fieldGroup(player, group)),
    playerTools(player));
}

function fieldGroup(player, group) {
  const msgId = `${player.id}-group-${group.id}-msg`;
  const rows = group.rows.map((row) => fieldRow(player, row, group.skeleton ? msgId : null));
  const message = h("p", { id: msgId, class: "msg" });
  if (!group.skeleton) {
    return h("fieldset", { class: "group" }, h("legend", { text: group.legend }), rows, message);
  }
  // A skeleton is tapped open by the player holding some of it; its positions read left to right.
  const held = heldIn(player, group);
  const open = player.open?.[group.id] ?? held > 0;
  return h("details", { class: "group skeleton", open, "data-group": group.id, ontoggle: (e) => {
    player.open = { ...player.open, [group.id]: e.target.open };
    save();
  } },
  h("summary", {}, h("span", { text: group.legend }),
    h("span", { id: `${player.id}-group-${group.id}-held`, class: "muted", text: heldText(held) })),
  h("fieldset", {}, h("legend", { class: "vh", text: `${player.name} ${group.legend}` }),
    h("div", { class: "cells" }, rows)),
  message);
}

const heldIn = (player, group) => group.rows.reduce((n, row) => n + Math.max(0, number(player.values[row.key]) || 0), 0);
const heldText = (n) => (n ? `${n} tile${n === 1 ? "" : "s"}` : "");

function fieldRow(player, row, groupMsg) {
  const id = fieldId(player, row);
  const value = player.values[row.key];
  const lead = h("span", { class: "vh", text: `${player.name} ${row.lead || ""}` });
  const msgId = `${id}-msg`;
  if (row.kind === "mission") {
    const chosen = row.options.find((m) => m.id === value);
    return h("div", { class: "field" },
      // The group's legend shows the word; the label names the player too.
      h("label", { for: id, class: "vh", text: `${player.name} ${row.word}` }),
      h("select", { id, "data-player": player.id, "data-key": row.key, "aria-describedby": `${id}-hint ${msgId}` },
        h("option", { value: "", text: "No mission" }),
        row.options.map((m) => h("option", { value: m.id, text: `${m.name} (${m.bonus} ${sheet.unit})`, selected: m.id === value }))),
      h("p", { id: `${id}-hint`, class: "muted", text: chosen?.condition || "" }),
      h("p", { id: msgId, class: "msg" }));
  }
  if (row.kind === "check") {
    return h("div", { class: "check" },
      h("input", { type: "checkbox", id, "data-player": player.id, "data-key": row.key, checked: Boolean(value) }),
      h("label", { for: id }, lead, h("span", { class: "w", text: row.word })));
  }
  const describedBy = [row.hint && `${id}-hint`, groupMsg || msgId].filter(Boolean).join(" ");
  const label = h("label", { for: id, id: `${id}-label` }, lead, h("span", { class: "w", text: row.short || row.word }));
  const step = (delta, text, name) => h("button", {
    type: "button", class: "step", tabindex: "-1", "data-step": delta, "data-for": id,
    "aria-label": name, "aria-describedby": `${id}-label`, text,
  });
  const input = h("input", {
    type: "number", id, inputmode: row.min === 0 ? "numeric" : null, step: 1, min: row.min ?? null, max: row.max ?? null,
    value: value ?? "0", "data-player": player.id, "data-key": row.key, "aria-describedby": describedBy,
  });
  const swatch = row.swatch ? h("span", { class: "swatch", "aria-hidden": "true" }) : null;
  swatch?.style.setProperty("--swatch", row.swatch);
  if (groupMsg) {
    // A position of a skeleton: a narrow cell with + above and − below.
    return h("div", { class: "cell" }, label,
      step(1, "+", "One more"), input, step(-1, "−", "One fewer"),
      row.hint ? h("span", { id: `${id}-hint`, class: "muted", title: "Value of a loose tile", text: `${row.hint} pt` }) : null);
  }
  return h("div", { class: "row" },
    h("div", { class: "what" }, swatch, label,
      row.hint ? h("span", { id: `${id}-hint`, class: "hint", text: row.hint }) : null),
    step(-1, "−", "One fewer"), input, step(1, "+", "One more"),
    h("p", { id: msgId, class: "msg" }));
}

function playerTools(player) {
  const index = tally.players.indexOf(player);
  const pid = player.id;
  return h("div", { class: "tools", id: `${pid}-tools` },
    h("button", { type: "button", class: "quiet", id: `${pid}-up`, "aria-label": `Move ${player.name} up`,
                  text: "↑ Up", disabled: index === 0, onclick: () => move(player, -1) }),
    h("button", { type: "button", class: "quiet", id: `${pid}-down`, "aria-label": `Move ${player.name} down`,
                  text: "↓ Down", disabled: index === tally.players.length - 1, onclick: () => move(player, 1) }),
    h("button", { type: "button", class: "quiet", id: `${pid}-rename`, "aria-label": `Rename ${player.name}`,
                  text: "Rename", onclick: () => renameForm(player) }),
    h("button", { type: "button", class: "quiet danger-text", "aria-label": `Remove ${player.name}`,
                  text: "Remove", onclick: () => remove(player) }));
}

function move(player, delta) {
  const from = tally.players.indexOf(player);
  tally.players.splice(from, 1);
  tally.players.splice(from + delta, 0, player);
  save();
  redrawSheets();
  const button = $(`#${player.id}-${delta < 0 ? "up" : "down"}`);
  (button.disabled ? $(`#${player.id}-rename`) : button).focus();
  $(`#${player.id}`).scrollIntoView({ block: "nearest" });
  score();
}

function renameForm(player) {
  const pid = player.id;
  const tools = $(`#${pid}-tools`);
  const form = h("form", { class: "rename", onsubmit: (e) => {
    e.preventDefault();
    const name = $(`#${pid}-new-name`).value.trim();
    const problem = nameProblem(name, player);
    $(`#${pid}-new-name-msg`).textContent = problem || "";
    if (problem) return;
    player.name = name;
    save();
    redrawSheets();
    $(`#${pid}-rename`).focus();
    score();
  } },
  h("label", { for: `${pid}-new-name`, text: `New name for ${player.name}` }),
  h("div", { class: "line" },
    h("input", { id: `${pid}-new-name`, value: player.name, maxlength: 40, autocomplete: "off",
                 "aria-describedby": `${pid}-new-name-msg` }),
    h("button", { class: "primary", text: "Save" }),
    h("button", { type: "button", class: "quiet", text: "Cancel", onclick: () => {
      form.replaceWith(playerTools(player));
      $(`#${pid}-rename`).focus();
    } })),
  h("p", { id: `${pid}-new-name-msg`, class: "msg" }));
  tools.replaceWith(form);
  $(`#${pid}-new-name`).select();
}

async function remove(player) {
  if (!(await ask(`Remove ${player.name} and everything entered for them?`, `Remove ${player.name}`))) return;
  tally.players = tally.players.filter((p) => p !== player);
  save();
  redrawSheets();
  score();
}

function drawBar() {
  bar.hidden = false;
  bar.replaceChildren(
    h("div", { class: "chips" },
      tally.players.length ? h("a", { href: "#standings", class: "chip", text: "Standings" }) : null,
      tally.players.map((p) => h("a", { href: `#${p.id}`, class: "chip", "data-chip": p.id },
        h("span", { text: p.name }), h("b", { text: "" })))),
    h("button", { type: "button", class: "new", text: "New tally", onclick: newTally }));
  if (tally.result) showResult(tally.result, false);
}

async function newTally() {
  if (tally.players.length) {
    const question = "Start a new tally? This one is kept under Earlier tallies on this phone.";
    if (!(await ask(question, "Start new tally"))) return;
    state.noStorage = !store.archive(tally);
  } else {
    store.clear();
  }
  scores.forget();
  tally = null;
  state.problem = null;
  setOffline(false);
  showHome();
}

// --- values typed, totals shown ---------------------------------------------------------------

main.addEventListener("input", (e) => {
  const { player: pid, key } = e.target.dataset;
  if (!pid) return;
  const player = tally.players.find((p) => p.id === pid);
  player.values[key] = e.target.type === "checkbox" ? e.target.checked : e.target.value;
  if (key === "mission") {
    const chosen = groups.flatMap((g) => g.rows).find((r) => r.kind === "mission")?.options.find((m) => m.id === e.target.value);
    $(`#${e.target.id}-hint`).textContent = chosen?.condition || "";
  }
  const cell = e.target.closest(".skeleton");
  if (cell) {
    const group = groups.find((g) => g.id === cell.dataset.group);
    $(`#${pid}-group-${group.id}-held`).textContent = heldText(heldIn(player, group));
  }
  save();
  score();
});
main.addEventListener("click", (e) => {
  const button = e.target.closest("[data-step]");
  if (!button) return;
  const input = $(`#${button.dataset.for}`);
  let value = (Math.trunc(Number(input.value)) || 0) + Number(button.dataset.step);
  if (input.min !== "") value = Math.max(Number(input.min), value);
  if (input.max !== "") value = Math.min(Number(input.max), value);
  input.value = String(value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
});
main.addEventListener("focusin", (e) => {
  if (e.target.type === "number") e.target.select();
});

const scores = scorer({
  onPending() {
    state.pending = true;
    showNote();
  },
  onResult(result) {
    state.pending = false;
    state.problem = null;
    setOffline(false);
    tally.result = result;
    save();
    showProblems({});
    showResult(result);
  },
  onProblem(problem) {
    state.pending = false;
    state.problem = problem;
    setOffline(false);
    showProblems(problem.body.errors || { "": [problem.message] });
    showNote();
  },
  onOffline() {
    state.pending = false;
    setOffline(true);
    showNote();
  },
});

function score(now = false) {
  if (!tally.players.length) {
    scores.forget();
    tally.result = null;
    return;
  }
  scores.ask(`${API}/${tally.game}/score`, sheet.request(box, tally, groups), now);
}

function showNote() {
  const note = $("#score-note");
  if (!note) return;
  // Only lasting states get words: a line appearing on every keystroke would move the page.
  let text = "";
  if (state.problem) text = "Totals are waiting for the count marked below.";
  else if (state.offline) text = "Totals are not up to date: the server cannot be reached.";
  if (note.textContent !== text) note.textContent = text;
  main.classList.toggle("stale", Boolean(text) || state.pending);
}

function showResult(result, note = true) {
  const ranked = [...result.players].sort((a, b) => a.rank - b.rank);
  const shared = result.winners.length > 1;
  for (const player of tally.players) {
    const scored = result.players.find((r) => r.name === player.name);
    const total = $(`#${player.id}-total`);
    if (!total) continue;
    total.textContent = scored ? minus(scored.total) : "–";
    $(`#${player.id}-rank`).textContent = !scored ? "" : `${ordinal(scored.rank)}${
      result.winners.includes(scored.name) ? (shared ? " · shared win" : " · winner") : ""}`;
    $(`#${player.id}-breakdown`).replaceChildren(...(scored ? breakdown(scored.breakdown) : []));
    const chip = bar.querySelector(`[data-chip="${player.id}"] b`);
    if (chip) chip.textContent = scored ? minus(scored.total) : "";
  }
  const ranking = $("#ranking");
  if (ranking) {
    ranking.replaceChildren(...ranked.map((r) => h("li", { class: result.winners.includes(r.name) ? "won" : null },
      h("span", { class: "pos", text: ordinal(r.rank) }),
      h("span", { class: "who", text: r.name }),
      h("span", { class: "pts", text: `${minus(r.total)} ${sheet.unit}` }),
      result.winners.includes(r.name) ? h("span", { class: "badge", text: shared ? "Shared win" : "Winner" }) : null)));
    const tie = $("#tie");
    tie.hidden = !result.tie_break;
    tie.textContent = result.tie_break
      ? `Tie-break: ${[result.tie_break.rule, result.tie_break.explanation].filter(Boolean).join(" ")}` : "";
  }
  if (note) showNote();
}

/** The calculator's breakdown in words: amounts as they are, groups of amounts without the
 * zeros, and lists of things as a line each. */
function breakdown(parts) {
  const out = [];
  const add = (term, value) => out.push(h("div", {},
    h("dt", { text: term[0].toUpperCase() + term.slice(1) }), h("dd", { text: value })));
  for (const [key, value] of Object.entries(parts)) {
    if (typeof value === "number") add(words(key), minus(value));
    else if (Array.isArray(value)) {
      add(words(key), value.length
        ? value.map((item) => Object.values(item).map((v) => (typeof v === "number" ? minus(v) : words(v))).join(" ")).join(", ")
        : "none");
    } else if (value && typeof value === "object") {
      const entries = Object.entries(value);
      if (entries.every(([, v]) => typeof v === "number")) {
        const nonzero = entries.filter(([, v]) => v !== 0);
        if (!nonzero.length) add(words(key), "0");
        for (const [name, v] of nonzero) add(`${words(key)}: ${words(name)}`, minus(v));
      } else {
        add(words(key), Object.entries(value).map(([k, v]) => `${words(k)} ${minus(v)}`).join(" · "));
      }
    }
  }
  return out;
}

/** The API's messages by the fields they name: "players.0.tiles.stone" by that count, "players"
 * (a limit across players) by every field the message names and above the sheets. */
function showProblems(errors) {
  for (const el of main.querySelectorAll(".msg")) {
    if (!el.id.endsWith("new-name-msg")) el.textContent = "";
  }
  for (const el of main.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  const say = (id, message) => {
    const el = document.getElementById(id);
    if (!el) return false;
    el.textContent = el.textContent ? `${el.textContent} ${message}` : message;
    return true;
  };
  const flag = (player, row) => {
    const input = document.getElementById(fieldId(player, row));
    input?.setAttribute("aria-invalid", "true");
    input?.closest("details")?.setAttribute("open", "");
  };
  for (const [field, messages] of Object.entries(errors)) {
    for (const message of messages) {
      const at = /^players\.(\d+)(?:\.(.+))?$/.exec(field);
      const player = at && tally.players[Number(at[1])];
      if (player) {
        showPlayerProblem(player, at[2] || "", message, say, flag);
      } else if (field === "players") {
        say("players-msg", message);
        for (const { row, group } of rowsNamedIn(message, groups)) {
          // Only the players who hold some of what the message counts share the blame.
          for (const p of tally.players.filter((q) => number(q.values[row.key]) > 0)) {
            flag(p, row);
            if (!group.skeleton) say(`${fieldId(p, row)}-msg`, message);
            else if (!document.getElementById(`${p.id}-group-${group.id}-msg`).textContent.includes(message)) {
              say(`${p.id}-group-${group.id}-msg`, message);
            }
          }
        }
      } else if (!say(`${field}-msg`, message)) {
        say("general-msg", message);
      }
    }
  }
}

function showPlayerProblem(player, path, message, say, flag) {
  // The most precise place that the path names: a field, then its group, then the player.
  const parts = path.split(".");
  for (let n = parts.length; n > 0; n--) {
    const prefix = parts.slice(0, n).join(".");
    for (const group of groups) {
      const row = group.rows.find((r) => r.path === prefix);
      if (row) {
        flag(player, row);
        say(`${fieldId(player, row)}-msg`, message);
        return;
      }
      if (group.path === prefix) {
        group.rows.forEach((r) => { if (!r.kind) flag(player, r); });
        say(`${player.id}-group-${group.id}-msg`, message);
        return;
      }
    }
  }
  say(`${player.id}-msg`, message);
}

// --- start ------------------------------------------------------------------------------------

addEventListener("storage", (e) => {
  // The same tally open in another tab: show what that tab saved.
  if (e.key === store.TALLY) location.reload();
});
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}
if (!navigator.onLine) setOffline(true);
if (tally?.game) openTally();
else showHome();
