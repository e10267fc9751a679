// The page's elements: how they are built, the one place their ids are made, the status line.
import { LANGUAGES, language, t, useLanguage } from "./i18n.js";
import { remember } from "./store.js";

const present = (children) => children.flat().filter((c) => c != null && c !== false);

/** Builds an element: attributes (on* are listeners, `text` the content), then children. */
export function h(tag, attributes = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value == null || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "text") el.textContent = value;
    else if (name === "value" || name === "checked") el[name] = value;
    else el.setAttribute(name, value === true ? "" : value);
  }
  el.append(...present(children));
  return el;
}

/** Replaces an element's content, skipping the parts that are not there. */
export const fill = (el, ...children) => el.replaceChildren(...present(children));
export const byId = (id) => document.getElementById(id);
export const uid = (prefix) => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Draws again with `draw`, keeping the focus (and the text selected) where it was. */
export function keepFocus(draw) {
  const { id, selectionStart: start, selectionEnd: end } = document.activeElement || {};
  draw();
  const el = id && byId(id);
  if (!el || el === document.activeElement) return;
  el.focus({ preventScroll: true });
  if (start != null) el.setSelectionRange?.(start, end);
}

/** Runs `change` keeping the count being entered (focused in #sheets, or its − or + tapped, in
 * view) where it is on the screen as what is above it changes height: the standings, a refusal.
 * Scroll anchoring is off there (style.css): it failed once its anchor was drawn anew. */
export function steady(change) {
  const focused = byId(ids.sheets)?.contains(document.activeElement) && document.activeElement;
  const id = focused && (focused.id || focused.dataset.for);
  const box = id && byId(id)?.getBoundingClientRect();
  const top = box && box.bottom > 0 && box.top < innerHeight ? box.top : null;
  const result = change();
  const moved = top == null ? 0 : (byId(id)?.getBoundingClientRect().top ?? top) - top;
  if (moved) scrollBy(0, moved);
  return result;
}

/** The language list (kept on the phone): `chosen()` once the page speaks it. */
export const languageField = (chosen, id = ids.setting("language")) => h("div", { class: "field" },
  h("label", { for: id, text: t("language") }),
  h("select", { id, onchange: ({ target: { value } }) => {
    remember("lang", value);
    useLanguage(value).then(chosen);
  } },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, text: name, selected: code === language }))));

/** Marks a field the calculator or the page refuses, or clears the mark. */
export const markInvalid = (el, invalid = true) =>
  (invalid ? el?.setAttribute("aria-invalid", "true") : el?.removeAttribute("aria-invalid"));

const join = (...parts) => parts.filter((p) => p != null).join("-").replace(/[^\w-]/g, "-");
const of = (part) => (player) => join(player.id, part);

/** Every id on the page, made here so that what draws an element and what finds it agree. */
export const ids = {
  main: "main", bar: "bar", status: "status", confirm: "confirm", choose: "choose", earlier: "earlier",
  game: "game", standings: "standings", note: "score-note", ranking: "ranking", tie: "tie", sheets: "sheets",
  action: "action", data: "data",
  /** A player's sheet, and its parts. */
  sheet: of(null), name: of("name"), total: of("total"), rank: of("rank"), chip: of("chip"),
  breakdown: of("breakdown"), tools: of("tools"), up: of("up"), down: of("down"), rename: of("rename"),
  /** The name field: a new player's, or a player's new name. */
  newName: (player) => join(player?.id, "new-name"),
  field: (player, row) => join(player.id, row.key),
  groupMsg: (player, group) => join(player.id, "group", group.id, "msg"),
  /** A setting's control ("variant"), or one of several ("bowl-1"). */
  setting: (key, i) => join(key, i == null ? null : i + 1),
  /** What stands beside an element with an id, or under an API error key ("bowls", "players"). */
  msg: (id) => join(id, "msg"), hint: (id) => join(id, "hint"), label: (id) => join(id, "label"),
  part: (id, part) => join(id, part),
};

/** Asks `question` in the page's dialog; true if the player chose `action`, false for Cancel. */
export function ask(question, action) {
  const dialog = byId(ids.confirm);
  byId(ids.part(ids.confirm, "text")).textContent = question;
  byId(ids.part(ids.confirm, "ok")).textContent = action;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true }));
}

/** What lasts and is said in the status line: no connection (or "noAnswer"), no storage, a passing word. */
export const status = { offline: false, noStorage: false, said: "" };

let offlineWords = "offline"; // what being offline means on this page (offlineMeans)

/** What the status line says the page does offline: the scorer's totals are worked out on the
 * phone; a follower's stay as last heard. */
export function offlineMeans(key) {
  offlineWords = key;
  showStatus({});
}

export function showStatus(change) {
  Object.assign(status, change);
  // A page no service worker controls (served without HTTPS) cannot open again with no network.
  const unkept = status.offline === true && !navigator.serviceWorker?.controller && t("offlineUnkept");
  const text = [status.offline && t(status.offline === true ? offlineWords : status.offline), unkept, status.noStorage && t("noStorage"), status.said]
    .filter(Boolean).join(" · ");
  const banner = byId(ids.status);
  if (banner.textContent !== text) steady(() => { banner.textContent = text; });
}

/** Why the server did not do what was asked, and how long to wait, in the page's words. */
export const failure = ({ status, after }) => t("serverFailed", { status, after: after > 0 && after });

/** Says something in the status line for a few seconds ("Copied"), or for `ms`; where that line
 * is scrolled out of sight, it is shown where the page is too, above a pad at the bottom (a screen
 * reader hears it once, from the line). */
export function say(text, ms = 4000) {
  showStatus({ said: text });
  const line = byId(ids.status).getBoundingClientRect();
  if (line.bottom <= 0 || line.top >= innerHeight) toast(text);
  setTimeout(() => {
    if (status.said !== text) return;
    showStatus({ said: "" });
    toast("");
  }, ms);
}

function toast(text) {
  let el = document.querySelector(".toast");
  if (!el) document.body.append(el = h("p", { class: "toast", "aria-hidden": "true" }));
  el.textContent = text;
  el.hidden = !text;
}
