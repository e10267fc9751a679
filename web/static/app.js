// The scorer page starts here: on the tally in progress on this phone, or on the home screen;
// at /follow/{id}, on a tally shared live by another phone, followed read-only (follow.js).
// The screens: home.js (choose a game), tally.js (the sheets and their totals, shared live by
// live.js), results.js and errors.js (what the scorer answers); each game's sheet is
// sheets/{game id}.js and its scorer scoring/{game id}.js. Every tab of the page shows the same
// tally: a change saved in one is drawn in the others, without reloading anything.
import { byId, ids, offlineMeans, showStatus } from "./dom.js";
import { t, useLanguage } from "./i18n.js";
import * as store from "./store.js";

let shown = null; // the screen on show: { tally } or { home }
const followed = /^\/follow\/([^/]+)$/.exec(location.pathname)?.[1];

async function home() {
  const back = shown?.tally;
  shown = { home: true };
  (await import("./home.js")).showHome(open, relabel);
  if (back) byId(ids.choose)?.focus(); // the keyboard goes on from the games, not the page's top
}

async function open(tally) {
  shown = { tally };
  // Sharing live is heard from the first change on; the tally opens without it all the same.
  const [screen] = await Promise.all([import("./tally.js"), import("./live.js").catch(() => null)]);
  return screen.openTally(tally, home, relabel);
}

async function follow() {
  shown = { followed };
  offlineMeans("offlineFollowing");
  (await import("./follow.js")).follow(followed);
}

/** The words of the page's frame, in the language in use. */
function relabel() {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  showStatus({});
}

addEventListener("storage", async ({ key, newValue }) => {
  if (followed) {
    // A tally followed shows nothing this phone enters: only a language chosen in another tab.
    if (key !== "digsite.lang") return;
    await useLanguage();
    relabel();
    follow();
  } else if (key === store.TALLY) {
    // Another tab saved the tally in progress, started one, or finished it.
    const tally = store.load(newValue);
    if (tally?.game) open(tally);
    else if (shown?.tally) {
      (await import("./tally.js")).closeTally(); // put away there: nothing more of it here
      home();
    }
  } else if (key === "digsite.lang") {
    await useLanguage();
    relabel();
    shown?.tally ? open(store.load() || shown.tally) : home();
  } else if (shown?.home && key?.startsWith("digsite.")) {
    home(); // finished tallies, names
  }
});
addEventListener("online", () => showStatus({ offline: false }));
addEventListener("offline", () => showStatus({ offline: true }));
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}
await useLanguage();
relabel();
if (!navigator.onLine) showStatus({ offline: true });
byId(ids.main).removeAttribute("aria-busy");
const saved = followed ? null : store.load();
if (followed) follow();
else if (saved?.game) open(saved);
else home();
