// A tally taken off the phone: shared as text (the phone's share sheet, else copied), exported as
// a play for BG Stats, or every finished tally downloaded as one JSON file. Loaded when asked for.
import { h, say } from "./dom.js";
import { item, language, minus, t } from "./i18n.js";

const day = (time) => new Date(time || Date.now());
const stamp = (time) => day(time).toISOString().slice(0, 10);

function download(name, data) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A finished tally as text: the game, the day, then each player's place and total. */
function resultText({ tally, result, unit }) {
  const won = result.winners.length > 1 ? "sharedWin" : "winner";
  return [`${item("game", tally.game, tally.name)} · ${day(tally.updated).toLocaleDateString(language)}`,
    ...[...result.players].sort((a, b) => a.rank - b.rank).map((r) => `${t("ordinal", { n: r.rank })} ${r.name} ${minus(r.total)} ${unit}`
      + (result.winners.includes(r.name) ? ` (${t(won)})` : ""))].join("\n");
}

/** Shares the result with the phone's share sheet, or copies it where there is none. */
export async function shareResult(what) {
  const text = resultText(what);
  try {
    if (navigator.share) return await navigator.share({ title: t("title"), text });
    await navigator.clipboard.writeText(text);
  } catch (error) {
    if (error.name === "AbortError") return; // the player closed the share sheet
    // no clipboard either (a page served without HTTPS): the old way
    const area = h("textarea", { value: text, "aria-hidden": "true", class: "vh" });
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  say(t("copied"));
}

/** The play in BG Stats' JSON play format (its "push plays" import): game, date, and each player
 * with score, rank and whether they won. */
function bgStatsPlay({ tally, result, box }) {
  const date = day(tally.updated);
  const local = new Date(date - date.getTimezoneOffset() * 60000).toISOString();
  const variant = box.variant_rules?.find((v) => v.id === result.variant);
  return {
    sourceName: "Digsite",
    sourcePlayId: tally.id,
    playDate: `${local.slice(0, 10)} ${local.slice(11, 19)}`,
    board: variant ? item("variant", variant.id, variant.name) : "",
    game: { name: box.name, sourceGameId: box.id, highestWins: true, noPoints: false },
    players: result.players.map((r) => ({
      name: r.name, score: r.total, rank: r.rank, winner: result.winners.includes(r.name),
      sourcePlayerId: tally.players.find((p) => p.name === r.name)?.id,
    })),
  };
}

export function exportPlay(what) {
  download(`${what.tally.game}-${stamp(what.tally.updated)}.bgstats.json`, bgStatsPlay(what));
}

const BACKUP = { format: "digsite-tallies", version: 1 };

/** Every finished tally kept on this phone, with its result. */
export function downloadAll(tallies) {
  download(`digsite-tallies-${stamp()}.json`, { ...BACKUP, exported: new Date().toISOString(), tallies });
}

const object = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isTally = (tally) => object(tally) && typeof tally.id === "string" && typeof tally.game === "string"
  && Array.isArray(tally.players) && tally.players.every((p) => object(p) && typeof p.name === "string" && object(p.values));

/** The tallies of a file downloadAll wrote (those whole enough to open), or null if `text` is no
 * such file. */
export function readBackup(text) {
  let backup;
  try {
    backup = JSON.parse(text);
  } catch {
    return null;
  }
  if (!object(backup) || backup.format !== BACKUP.format || backup.version !== BACKUP.version || !Array.isArray(backup.tallies)) return null;
  return backup.tallies.filter(isTally);
}
