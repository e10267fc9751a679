// The play page starts here, on what its address says: /play sets up a match (play-setup.js),
// /play/{id} is a match's table as this phone's seat sees it (play-match.js; a seat's link adds
// ?seat=N to join it), /play/{id}/replay steps through a finished match (play-replay.js). The
// boards of the games and every action in words are play-boards.js; talking to the API and the
// seats kept on this phone, play-net.js; the page's words, play-words/{language}.js.
import { byId, ids, say, showStatus } from "./dom.js";
import { t, useLanguage, usePack } from "./i18n.js";

const [, matchId, replay] = /^\/play(?:\/([^/]+)(\/replay)?)?\/?$/.exec(location.pathname) || [];
const wanted = new URLSearchParams(location.search).get("seat");

function relabel() {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  showStatus({});
}

addEventListener("storage", ({ key }) => key === "digsite.lang" && location.reload());
// A seat's link opened in a tab already on its match changes only the address's # part: the page
// is opened again, so that the link's seat is checked and taken as on a first opening.
addEventListener("hashchange", () => /(^#|&)(token|host)=/.test(location.hash) && location.reload());
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
usePack("play", (code) => import(`./play-words/${code}.js`));
await useLanguage();
relabel();
byId(ids.main).removeAttribute("aria-busy");
try { // what the page before said was done, as this one opens (a match called off)
  const said = sessionStorage.getItem("digsite.play.said");
  sessionStorage.removeItem("digsite.play.said");
  if (said) say(said, 8000);
} catch {
  // no storage: nothing was kept to say
}
if (!matchId) (await import("./play-setup.js")).showSetup();
else if (replay) (await import("./play-replay.js")).showReplay(matchId);
else (await import("./play-match.js")).openMatch(matchId, wanted == null || wanted === "" ? null : Number(wanted));
