// Everything the page keeps on the phone (localStorage): the tally in progress, written on every
// change, the last finished tallies, and the last copy of what the server told us.

export const TALLY = "digsite.tally";
const HISTORY = "digsite.history";
const KEEP = 10;

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

export const load = () => read(TALLY, null);

export function save(tally) {
  tally.updated = Date.now();
  return write(TALLY, tally);
}

export function clear() {
  try {
    localStorage.removeItem(TALLY);
  } catch {
    // nothing was saved
  }
}

export const history = () => read(HISTORY, []);

/** Keep a finished tally among the last ones, newest first. */
export function archive(tally) {
  const kept = history().filter((t) => t.id !== tally.id);
  return write(HISTORY, [tally, ...kept].slice(0, KEEP)) && write(TALLY, null);
}

/** Take a finished tally back out of the history to carry on with it. */
export function reopen(id) {
  const all = history();
  const tally = all.find((t) => t.id === id);
  if (tally && write(TALLY, tally)) write(HISTORY, all.filter((t) => t !== tally));
  return tally;
}

export const cached = (name) => read(`digsite.${name}`, null);
export const remember = (name, value) => write(`digsite.${name}`, value);
