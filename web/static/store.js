// What the page keeps on the phone (localStorage): README "The phone page".

export const TALLY = "digsite.tally";
const HISTORY = "digsite.history";
const NAMES = "digsite.names";
const KEEP = 100;
const KEEP_NAMES = 12;
// localStorage reaches the disk up to a minute after it is written: a browser killed meanwhile
// loses the last entries. Each key is copied to IndexedDB as it is written, with the time it was
// (AT keeps the same times beside it), and a page opened later puts back a copy newer than the key.
const AT = "digsite:at";
let last = 0;
const copies = new Promise((done) => {
  const asked = indexedDB.open("digsite", 1);
  asked.onupgradeneeded = () => asked.result.createObjectStore("kept");
  asked.onsuccess = () => done(asked.result);
  asked.onerror = asked.onblocked = () => done(null);
}).catch(() => null); // no IndexedDB (Node), or one that refused

function read(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

/** Copies `text` (null: removed) as `key` now holds it; after the key, so that a copy never
 * counts as newer than the key it copies, written with it. */
function copy(key, text) {
  const at = (last = Math.max(Date.now(), last + 1));
  try {
    localStorage.setItem(AT, JSON.stringify({ ...read(AT, {}), [key]: at }));
  } catch {
    // the copy then counts as newer: put back as the same text
  }
  copies.then((db) => db?.transaction("kept", "readwrite").objectStore("kept").put({ text, at }, key)).catch(() => {});
}

/** Puts back each key whose copy is newer than it (the browser was killed before the key
 * reached the disk): whether any was. */
async function recover() {
  const db = await copies;
  if (!db) return false;
  const kept = db.transaction("kept").objectStore("kept");
  const got = (asked) => new Promise((done, failed) => {
    asked.onsuccess = () => done(asked.result);
    asked.onerror = failed;
  });
  const [keys, values] = await Promise.all([got(kept.getAllKeys()), got(kept.getAll())]);
  const at = read(AT, {});
  let back = false;
  keys.forEach((key, i) => {
    const { text, at: when } = values[i];
    if (when <= (at[key] || 0)) return;
    text == null ? localStorage.removeItem(key) : localStorage.setItem(key, text);
    at[key] = when;
    back = true;
  });
  if (back) localStorage.setItem(AT, JSON.stringify(at));
  return back;
}

// Before anything is read. IndexedDB slower than half a second: the page opens as it is, and
// opens again if a key was put back.
let late = false;
let waited = 0;
await Promise.race([recover().then((back) => late && back && location.reload(), () => {}),
  new Promise((done) => (waited = setTimeout(() => done((late = true)), 500)))]);
clearTimeout(waited);

/** false when the phone refuses to store (private mode, storage full). */
function write(key, value) {
  try {
    const text = JSON.stringify(value);
    localStorage.setItem(key, text);
    copy(key, text);
    return true;
  } catch {
    return false;
  }
}

let written = null; // the tally in progress as this tab last wrote or read it, less its time
let counted = null; // what of it the date follows (substance)

const content = (tally) => JSON.stringify({ ...tally, updated: undefined });
/** A tally less what only its reading changes (its time, its last result, which groups are
 * folded open): a tally's date is when this last changed. */
const substance = (tally) => JSON.stringify({
  ...tally, updated: undefined, result: undefined, players: tally.players?.map(({ open, openedAt, ...player }) => player),
});

function wrote(tally) {
  written = tally && content(tally);
  counted = tally && substance(tally);
}

/** The tally in progress, as stored (`text` when another tab just wrote it). */
export function load(text = localStorage.getItem(TALLY)) {
  let tally = null;
  try {
    tally = JSON.parse(text);
  } catch {
    // nothing usable was saved
  }
  wrote(tally);
  return tally;
}

/** Saves the tally in progress, unless nothing changed: a tab that takes up another's change
 * writes nothing back, so tabs never answer each other without end. Its date moves only when
 * what it counts changes, not when it is opened or read. */
export function save(tally) {
  if (content(tally) === written) return true;
  if (substance(tally) !== counted) tally.updated = Date.now();
  wrote(tally);
  return write(TALLY, tally);
}

export function clear() {
  wrote(null);
  try {
    localStorage.removeItem(TALLY);
    copy(TALLY, null);
  } catch {
    // nothing was saved
  }
}

/** Whether a player has anything entered, a 0 too: until one has, nobody is ranked. */
export const filled = (p) => Object.values(p.values).some((v) => v !== "" && v != null && v !== false);
export const entered = (tally) => tally.players.some(filled);

export const history = () => read(HISTORY, []);

/** Keeps a finished tally (with its `result`) among the last ones, the latest changed first: one
 * only opened again goes back to its place. */
export function archive(tally) {
  const kept = history().filter((t) => t.id !== tally.id);
  const all = [tally, ...kept].sort((a, b) => (b.updated || 0) - (a.updated || 0));
  const done = write(HISTORY, all.slice(0, KEEP));
  if (done) clear();
  return done;
}

/** Takes a finished tally back out of the history to read or carry on with it, its date as it
 * was: it changes with the first count changed. */
export function reopen(id) {
  const all = history();
  const found = all.find((t) => t.id === id);
  if (!found) return found;
  const { result, ...tally } = found; // totalled afresh on its sheet
  if (write(HISTORY, all.filter((t) => t !== found))) {
    wrote(tally);
    write(TALLY, tally);
  }
  return tally;
}

/** Takes a finished tally off this phone. */
export const forget = (id) => write(HISTORY, history().filter((t) => t.id !== id));

/** Puts tallies from a downloaded file back among the finished ones. A tally already here stays
 * as the later changed of the two; the history stays latest changed first. How many came back,
 * or null when the phone refuses to store. */
export function restore(tallies) {
  const kept = new Map(history().map((t) => [t.id, t]));
  let back = 0;
  for (const tally of tallies) {
    if ((kept.get(tally.id)?.updated ?? -Infinity) >= (tally.updated || 0)) continue;
    kept.set(tally.id, tally);
    back += 1;
  }
  const all = [...kept.values()].sort((a, b) => (b.updated || 0) - (a.updated || 0));
  return write(HISTORY, all.slice(0, KEEP)) ? back : null;
}

/** A player's name as the page tells players apart: as typed, trimmed, whatever its case (no two
 * players of a tally share one). The statistics know a player by it, and BG Stats too. */
export const nameKey = (name) => name.trim().toLowerCase();

/** The names of earlier players, the latest first. */
export const names = () => read(NAMES, []);

/** Remembers a player's name as last written: "ann" after "Ann" is the same player. */
export function rememberName(name) {
  write(NAMES, [name, ...names().filter((n) => nameKey(n) !== nameKey(name))].slice(0, KEEP_NAMES));
}

export const cached = (name) => read(`digsite.${name}`, null);

// The game list and each game's box as last fetched, or null. Only what is one: an earlier release
// kept an answer cut off on its way as {} (http.js), and a page that drew it stopped on it.
export const isGameList = (value) => Array.isArray(value?.games);
export const keptGames = () => {
  const kept = cached("games");
  return isGameList(kept) ? kept : null;
};
export const keptBox = (game) => {
  const kept = cached(`box.${game}`);
  return kept?.id === game ? kept : null;
};
export const remember = (name, value) => write(`digsite.${name}`, value);
