// Everything the page keeps on the phone (localStorage): the tally in progress, written on every
// change, the finished tallies, the names of the players, the language chosen, and the last copy
// of what the server told us. Every tab of the page shares it (app.js hears the others' changes).

export const TALLY = "digsite.tally";
const HISTORY = "digsite.history";
const NAMES = "digsite.names";
const KEEP = 100;
const KEEP_NAMES = 12;

function read(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

/** false when the phone refuses to store (private mode, storage full). */
function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

let written = null; // the tally in progress as this tab last wrote or read it, less its time

const content = (tally) => JSON.stringify({ ...tally, updated: undefined });

/** The tally in progress, as stored (`text` when another tab just wrote it). */
export function load(text = localStorage.getItem(TALLY)) {
  let tally = null;
  try {
    tally = JSON.parse(text);
  } catch {
    // nothing usable was saved
  }
  written = tally && content(tally);
  return tally;
}

/** Saves the tally in progress, unless nothing changed: a tab that takes up another's change
 * writes nothing back, so tabs never answer each other without end. */
export function save(tally) {
  if (content(tally) === written) return true;
  written = content(tally);
  tally.updated = Date.now();
  return write(TALLY, tally);
}

export function clear() {
  written = null;
  try {
    localStorage.removeItem(TALLY);
  } catch {
    // nothing was saved
  }
}

export const history = () => read(HISTORY, []);

/** Keeps a finished tally (with its `result`) among the last ones, newest first. */
export function archive(tally) {
  const kept = history().filter((t) => t.id !== tally.id);
  const done = write(HISTORY, [tally, ...kept].slice(0, KEEP));
  if (done) clear();
  return done;
}

/** Takes a finished tally back out of the history to carry on with it. */
export function reopen(id) {
  const all = history();
  const tally = all.find((t) => t.id === id);
  if (tally && write(HISTORY, all.filter((t) => t !== tally))) save(tally);
  return tally;
}

/** The names of earlier players, the latest first. */
export const names = () => read(NAMES, []);

export function rememberName(name) {
  write(NAMES, [name, ...names().filter((n) => n !== name)].slice(0, KEEP_NAMES));
}

export const cached = (name) => read(`digsite.${name}`, null);
export const remember = (name, value) => write(`digsite.${name}`, value);
