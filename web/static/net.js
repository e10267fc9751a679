// Talking to the API: box data with a fallback to the last copy, and the calculator, asked to
// confirm the phone's totals after every change (debounced), with stale answers ignored and
// retries while offline. A page no service worker can keep loads the rest of itself while the
// network is there (whole).

import { Offline, Problem, request as call } from "./http.js";

export { Offline, Problem };
export const GAMES = "/api/v1/games";
const DEBOUNCE_MS = 150;
const RETRY_MS = 3000;

export const getJSON = (url) => call(url);

/** Asks the calculator for totals as the players type. Only the answer to the latest request
 * counts; but for the calculator's refusal of the counts (422 naming them) it retries on a timer
 * (or Retry-After) and when the phone is back online: a proxy's 400 or 413 is no answer. `onResult(result, body)` and `onProblem(problem, body)` hear the answer to `body`. */
export function scorer({ onResult, onProblem, onOffline }) {
  let latest = null;
  let seq = 0;
  let timer = 0;
  let controller = null;

  async function send() {
    clearTimeout(timer);
    if (!latest) return;
    const mine = ++seq;
    const { url, body } = latest;
    controller?.abort();
    controller = new AbortController();
    let result;
    try {
      result = await call(url, {
        method: "POST", body: JSON.stringify(body), signal: controller.signal,
        headers: { "Content-Type": "application/json" },
      });
    } catch (error) {
      if (mine !== seq) return;
      if (error.status === 422 && error.body.errors) {
        onProblem(error, body);
      } else {
        onOffline(error);
        timer = setTimeout(send, error.after * 1000 || RETRY_MS);
      }
      return;
    }
    // heard outside the try: what the page does with an answer is no failure of the network
    if (mine === seq) onResult(result, body);
  }

  addEventListener("online", () => latest && send());
  return {
    /** Score `body` once typing pauses. */
    ask(url, body) {
      latest = { url, body };
      seq += 1; // an answer still on its way is to counts since changed: dropped
      clearTimeout(timer);
      timer = setTimeout(send, DEBOUNCE_MS);
    },
    forget() {
      latest = null;
      seq += 1;
      clearTimeout(timer);
      controller?.abort();
    },
  };
}

/** Whether the phone can keep this page: browsers give service workers only to pages served over
 * HTTPS (or from this computer), and only a page a service worker keeps opens with no network. */
export const keepable = "serviceWorker" in navigator;

/** Once the network goes, a page no service worker keeps has only what it has loaded. So, while
 * the network is there, it loads the rest of itself: the screens and files it loads when first
 * needed (sharing, statistics, each language), and each game's box, sheet and scorer. Settles
 * once all of that was tried. */
export const whole = keepable ? Promise.resolve() : new Promise((loaded) => {
  if (document.readyState === "complete") loaded();
  else addEventListener("load", loaded, { once: true });
}).then(async () => {
  const [{ LANGUAGES }, { sheetFor }, store] = await Promise.all([import("./i18n.js"), import("./sheet.js"), import("./store.js")]);
  const files = ["./home.js", "./tally.js", "./share.js", "./stats.js", ...Object.keys(LANGUAGES).map((code) => `./lang/${code}.js`)];
  await Promise.allSettled(files.map((file) => import(file)));
  const { games } = await getJSON(GAMES);
  await Promise.allSettled(games.map(async ({ id }) => {
    const box = await getJSON(`${GAMES}/${id}`);
    store.remember(`box.${id}`, box);
    await sheetFor(box);
  }));
}).catch(() => {}); // what could not be loaded is loaded when first needed, as on any page
