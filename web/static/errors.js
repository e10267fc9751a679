// What the scorer refuses, shown where its error keys say (README "The phone page").
import { byId, ids, markInvalid } from "./dom.js";
import { item, t } from "./i18n.js";

let marked = []; // what the last errors wrote into or marked

/** Clears the problems shown; with `show`, shows those it marks instead, each message written
 * only where it changes (an alert written again is said again). */
export function clearProblems(show) {
  writing = new Map();
  for (const el of marked) {
    if (el.classList.contains("msg")) writing.set(el, "");
    else markInvalid(el, false);
  }
  marked = [];
  try {
    show?.();
  } finally {
    for (const [el, text] of writing) if (el.textContent !== text) el.textContent = text;
    writing = null;
  }
}
let writing = null; // each message's text while clearProblems shows problems anew

// The things a refusal names, each named in the page's language.
const NAMED = { card: "card", mission: "mission", variant: "variant", colour: "colour", id: "dinosaur", tile: "tile" };

/** A refusal in words: the server's as it came, the phone scorer's from the language table. */
function word(problem) {
  if (typeof problem === "string") return problem;
  const named = Object.entries(NAMED).map(([key, kind]) => [key, problem[key] == null ? "" : item(kind, problem[key])]);
  return t(`problem.${problem.code}`, { ...problem, ...Object.fromEntries(named),
    missing: problem.missing?.map((c) => item("colour", c)).join(", ") });
}

/** Marks `inputs` and writes `messages` into the element `msg`, once each however many keys lead there. */
export function mark(inputs, msg, messages) {
  for (const input of inputs.filter(Boolean)) {
    markInvalid(input);
    input.closest("details")?.setAttribute("open", "");
    marked.push(input);
  }
  const el = byId(msg);
  let text = writing?.get(el) ?? el.textContent;
  for (const message of messages.map(word)) if (!text.includes(message)) text = `${text} ${message}`.trim();
  if (writing) writing.set(el, text);
  else el.textContent = text;
  marked.push(el);
}

/** `sent` is the request the errors answer. */
export function showProblems(errors, { tally, groups, sent }) {
  clearProblems(() => Object.entries(errors).forEach(([key, messages]) => {
    const [head, index, ...path] = key.split(".");
    const player = head === "players" && tally.players[index];
    const { rows, msg } = player ? place(groups, player, path, sent?.players[index])
      : { rows: [], msg: byId(ids.msg(key)) ? ids.msg(key) : ids.msg("general") };
    mark(rows.map((row) => byId(ids.field(player, row))), msg, messages);
  }));
}

/** The most precise place a player's error key names: one count, a group of counts, or the
 * player's sheet. */
function place(groups, player, path, sent) {
  for (let n = path.length; n > 0; n--) {
    const prefix = path.slice(0, n).join(".");
    for (const group of groups) {
      const entry = group.listed && group.path === prefix && n < path.length; // see rowNumbers
      const row = entry ? group.rows[path.reduce((at, part) => at?.[part], sent) - 1]
        : group.rows.find((r) => r.path === prefix);
      if (row) return { rows: [row], msg: group.skeleton ? ids.groupMsg(player, group) : ids.msg(ids.field(player, row)) };
      if (group.path === prefix) return { rows: group.rows.filter((r) => !r.kind), msg: ids.groupMsg(player, group) };
    }
  }
  return { rows: [], msg: ids.msg(ids.sheet(player)) };
}
