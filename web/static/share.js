// A tally taken off the phone: shared as text (the phone's share sheet, else copied, else shown
// to be selected and copied), handed to BG Stats through its createPlay link (and kept as a file
// of the same play), or every finished tally downloaded as one JSON file. Loaded when asked for.
// Sharing and copying are given only to pages served over HTTPS (or from this computer): a page
// served over plain HTTP on the local network falls back to the text on the screen, and says why.
import { byId, h, ids, markInvalid, say, showStatus } from "./dom.js";
import { item, locale, t, useGameWords } from "./i18n.js";
import { sameName, tidyName } from "./names.js";
import { amount } from "./results.js";
import * as store from "./store.js";

const { nameKey } = store;

// Its own words, loaded with it rather than with the first page's table.
useGameWords("share", {
  en: {
    restoreLeftOut: ({ n }) => `${n} ${n === 1 ? "tally was" : "tallies were"} left out: a player's name in ${n === 1 ? "it" : "each"} is not one this page takes (an invisible or direction-changing character, or over 40 characters).`,
    restoreUnknown: ({ n }) => `${n} ${n === 1 ? "tally was" : "tallies were"} left out: ${n === 1 ? "its game is" : "their games are"} not one this scorer knows.`,
  },
  ko: {
    restoreLeftOut: "기록 {n}개는 복원하지 않았습니다. 이 페이지에서 쓸 수 없는 참가자 이름(보이지 않거나 글 방향을 바꾸는 문자, 40자 초과)이 들어 있습니다.",
    restoreUnknown: "기록 {n}개는 복원하지 않았습니다. 이 점수 계산기가 모르는 게임의 기록입니다.",
  },
});

// Its own styles, loaded with it rather than with the first page.
const styled = new Promise((done) => document.head.append(h("link", {
  rel: "stylesheet", href: new URL("./share.css", import.meta.url).href, onload: done, onerror: done })));

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

const OFFER = ids.part(ids.standings, "offer");
const said = ids.part(OFFER, "said");

/** Shows `panel` under the standings' Share and BG Stats buttons, in place of one shown before.
 * It answers the totals on show: once they change (a count, a setting, the server's word), it
 * goes, so a text or link of totals no longer standing is never left to be taken. */
async function offer(panel) {
  const ranking = byId(ids.ranking);
  const shown = ranking.textContent;
  await styled;
  if (!ranking.isConnected || ranking.textContent !== shown) return;
  byId(OFFER)?.remove();
  byId(ids.part(ids.standings, "share")).after(panel);
  const watch = new MutationObserver(() => {
    if (ranking.textContent === shown) return;
    panel.remove();
    watch.disconnect();
  });
  watch.observe(ranking, { childList: true, subtree: true, characterData: true });
}

/** A panel: what it offers, then a button that puts it away. */
const panel = (label, ...content) => h("div", { id: OFFER, class: "offer", role: "group", "aria-label": label },
  ...content,
  h("p", { id: said, class: "muted", role: "status" }),
  h("button", { type: "button", class: "quiet", text: t("close"), onclick: () => {
    byId(OFFER).remove();
    byId(ids.part(ids.standings, "share")).querySelector("button").focus();
  } }));

/** A finished tally as text: the game, the day, what the table set that the totals follow from
 * (`setting`: DIG's bowls), then each player's place and total, and what the tie-break made of a
 * tie (`tie`, as the standings say it), if there was one. */
function resultText({ tally, result, currency, tie, setting }) {
  const won = result.winners.length > 1 ? "sharedWin" : "winner";
  return [`${item("game", tally.game, tally.name)} · ${day(tally.updated).toLocaleDateString(locale())}`,
    ...(setting ? [setting] : []),
    ...[...result.players].sort((a, b) => a.rank - b.rank).map((r) => `${t("ordinal", { n: r.rank })} ${r.name} ${amount(r.total, currency)}`
      + (result.winners.includes(r.name) ? ` (${t(won)})` : "")), ...(tie ? [tie] : [])].join("\n");
}

/** Shares the result with the phone's share sheet, or copies it where there is none; where the
 * page may do neither, shows it to be selected and copied. */
export async function shareResult(what) {
  const text = resultText(what);
  if (navigator.share) {
    try {
      return await navigator.share({ title: t("title"), text });
    } catch (error) {
      if (error.name === "AbortError") return; // the player closed the share sheet
    }
  }
  try {
    await navigator.clipboard.writeText(text);
    say(t("copied"));
  } catch {
    showText(text); // no clipboard: a page served without HTTPS, or copying refused
  }
}

/** The result in a field of its own, selected, with the reason it is shown and a button that
 * copies it as a page without the clipboard still can: the selection, at the player's tap. */
async function showText(text) {
  const id = ids.part(OFFER, "text");
  const area = h("textarea", { id, readonly: true, rows: text.split("\n").length, value: text, "aria-describedby": ids.hint(id) });
  await offer(panel(t("share"),
    h("p", { id: ids.hint(id), text: t("shareByHand") }),
    h("label", { for: id, class: "vh", text: t("resultText") }), area,
    h("button", { type: "button", class: "primary", text: t("copy"), onclick: () => {
      area.select();
      byId(said).textContent = t(document.execCommand("copy") ? "copied" : "notCopied");
    } })));
  area.focus();
  area.select();
}

// BG Stats takes a play through its createPlay link (BG Stats, "Push plays to BG Stats from other
// apps or websites"): the play as URL-encoded JSON, one play a link. It opens the app with the
// play filled in, and the app asks before keeping it.
const CREATE_PLAY = "bgstats://app.bgstatsapp.com/createPlay.html";

/** `time` as BG Stats reads a play's date: "YYYY-MM-DD HH:MM:SS", in UTC. */
const playDate = (time) => day(time).toISOString().slice(0, 19).replace("T", " ");

/** The play in BG Stats' createPlay format: where it comes from, when, the game (its name and our
 * id for it), the variant as the board, and each player with score, rank and whether they won. A
 * player is the same player from play to play by their name as the page tells players apart, so
 * BG Stats asks to match each of them once. */
export function bgStatsPlay({ tally, result, box }) {
  const variant = box.variant_rules?.find((v) => v.id === result.variant);
  const play = {
    sourceName: "Digsite",
    sourcePlayId: tally.id,
    playDate: playDate(tally.updated),
    game: { name: box.name, sourceGameId: box.id, highestWins: true, noPoints: false },
    players: result.players.map((r) => ({
      name: r.name, score: r.total, rank: r.rank, winner: result.winners.includes(r.name), sourcePlayerId: nameKey(r.name),
    })),
  };
  if (variant) play.board = item("variant", variant.id, variant.name);
  return play;
}

export const bgStatsLink = (what) => `${CREATE_PLAY}?data=${encodeURIComponent(JSON.stringify(bgStatsPlay(what)))}`;

/** Keeps the play as a file and offers the link that hands it to BG Stats: a link works on any
 * page, with or without HTTPS or a network. */
export async function exportPlay(what) {
  download(`${what.tally.game}-${stamp(what.tally.updated)}.bgstats.json`, bgStatsPlay(what));
  const note = ids.hint(ids.part(OFFER, "bgstats"));
  await offer(panel(t("bgStats"),
    h("p", { id: note, text: t("bgStatsNote") }),
    h("a", { id: ids.part(OFFER, "bgstats"), href: bgStatsLink(what), class: "button primary", "aria-describedby": note,
             text: t("bgStatsOpen") })));
  byId(ids.part(OFFER, "bgstats"))?.focus();
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

/** A name as the sheets take one typed (names.js), or null: tidied, and none the server refuses. */
const tidy = (name) => tidyName(name).name ?? null;

/** `tally` with its players named as the sheets would have them, or null when a name is one a
 * sheet refuses (an invisible or direction-changing character, too long, two players alike), or
 * its result names anyone else or totals with no number: drawn, such a name breaks the page. */
function named(tally) {
  const players = [];
  for (const player of tally.players) {
    const name = tidy(player.name);
    if (!name || players.some((p) => sameName(p.name, name))) return null;
    players.push({ ...player, name });
  }
  const { result } = tally;
  if (result == null) return { ...tally, players };
  const playing = (name) => typeof name === "string" && tidy(name) && players.some((p) => sameName(p.name, name));
  const fair = object(result) && Array.isArray(result.winners) && result.winners.every(playing)
    && Array.isArray(result.players) && result.players.every((p) => object(p) && playing(p.name) && Number.isFinite(p.total));
  return fair ? { ...tally, players } : null;
}

/** Puts the tallies of the file chosen in `input` back among the finished ones (home.js), and
 * says how many came back, and how many were left out for names the page would not take. */
export async function restoreFrom(input, draw) {
  const [file] = input.files;
  if (!file) return;
  const read = readBackup(await file.text());
  // a tally of a game this scorer does not know (a newer release's) could never be opened
  const known = store.keptGames()?.games.map((game) => game.id);
  const playable = read?.filter((tally) => !known || known.includes(tally.game));
  const tallies = playable?.map(named).filter(Boolean);
  const back = tallies && store.restore(tallies);
  showStatus({ noStorage: back === null });
  const left = playable ? playable.length - tallies.length : 0;
  const unknown = read ? read.length - playable.length : 0;
  if (tallies && back !== null) {
    draw();
    say(t("restored", { n: back }));
  }
  const ok = tallies && back !== null;
  markInvalid(byId(input.id), !tallies);
  const msg = byId(ids.msg(input.id));
  if (msg) {
    msg.textContent = !tallies ? t("notABackup") : !ok ? ""
      : [left && t("restoreLeftOut", { n: left }), unknown && t("restoreUnknown", { n: unknown })].filter(Boolean).join(" ");
  }
}
