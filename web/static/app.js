// The scorer page starts here: on the tally in progress on this phone, or on the home screen.
// The screens: home.js (choose a game), tally.js (the sheets), results.js and errors.js (what the
// calculator answers); each game's sheet is sheets/{game id}.js.
import { showStatus } from "./dom.js";
import { showHome } from "./home.js";
import * as store from "./store.js";
import { openTally } from "./tally.js";

const home = () => showHome((tally) => openTally(tally, home));

addEventListener("storage", (e) => {
  // The same tally open in another tab: show what that tab saved.
  if (e.key === store.TALLY) location.reload();
});
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}
if (!navigator.onLine) showStatus({ offline: true });
const saved = store.load();
if (saved?.game) openTally(saved, home);
else home();
