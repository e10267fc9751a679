// The API's problem+json `errors` shown where their keys say: "bowls" under the bowls,
// "players.0.tiles.stone" under the first player's stones. A limit across players comes under
// "players", shown once above the sheets, and again under each player's count it concerns.
import { byId, ids, markInvalid } from "./dom.js";

let marked = []; // what the last errors wrote into or marked

export function clearProblems() {
  for (const el of marked) {
    if (el.classList.contains("msg")) el.textContent = "";
    else markInvalid(el, false);
  }
  marked = [];
}

/** `sent` is the request the errors answer. */
export function showProblems(errors, { tally, groups, sent }) {
  clearProblems();
  for (const [key, messages] of Object.entries(errors)) {
    const [head, index, ...path] = key.split(".");
    const player = head === "players" && tally.players[index];
    const { rows, msg } = player ? place(groups, player, path, sent?.players[index])
      : { rows: [], msg: byId(ids.msg(key)) ? ids.msg(key) : ids.msg("general") };
    for (const input of rows.map((row) => byId(ids.field(player, row))).filter(Boolean)) {
      markInvalid(input);
      input.closest("details")?.setAttribute("open", "");
      marked.push(input);
    }
    const el = byId(msg);
    for (const message of messages) {
      // Once in each place, however many keys lead there.
      if (!el.textContent.includes(message)) el.textContent = `${el.textContent} ${message}`.trim();
    }
    marked.push(el);
  }
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
      const groupMsg = ids.groupMsg(player, group);
      if (row) return { rows: [row], msg: group.skeleton ? groupMsg : ids.msg(ids.field(player, row)) };
      if (group.path === prefix) return { rows: group.rows.filter((r) => !r.kind), msg: groupMsg };
    }
  }
  return { rows: [], msg: ids.msg(ids.sheet(player)) };
}
