// The service worker: keeps the scorer page (its scorers included) and the games' box data on the
// phone, so the page opens, draws its scoresheets and totals them with no network. Online, the
// server's calculator confirms the totals.
const VERSION = "%VERSION%";
const SHELL = ["%SHELL%"];
// The play page (/play, /play/{id}, /play/{id}/replay: one page that reads its address) is kept
// beside the scorer; a match itself is always asked of the server, never of the cache.
const PAGES = ["/play"];
const CACHE = `digsite-${VERSION}`;
const CATALOGUE = "/api/v1/games";

async function cacheBoxData(cache) {
  // Each game's box data, so a tally can be started or reopened offline.
  const response = await fetch(CATALOGUE, { cache: "no-store" });
  if (!response.ok) return;
  await cache.put(CATALOGUE, response.clone());
  const { games } = await response.json();
  await Promise.all(games.map((game) => cache.add(`${CATALOGUE}/${game.id}`)));
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...SHELL, ...PAGES].map((url) => new Request(url, { cache: "no-store" })));
    await cacheBoxData(cache).catch(() => {});
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("digsite-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request);
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreSearch: true });
  return cached || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname === CATALOGUE || url.pathname.startsWith(`${CATALOGUE}/`)) {
    // Box data: fresh when the server answers, the last copy when it does not.
    if (!url.pathname.slice(CATALOGUE.length + 1).includes("/")) {
      event.respondWith(networkFirst(request));
    }
    return;
  }
  // The page and its files: from the cache this version filled at install, which a new
  // version of the page replaces as a whole. A follow link (/follow/{id}) opens the same page,
  // which says so when it cannot reach the tally.
  if (SHELL.includes(url.pathname) || PAGES.includes(url.pathname)) event.respondWith(cacheFirst(request));
  else if (request.mode === "navigate" && url.pathname.startsWith("/follow/")) event.respondWith(cacheFirst(new Request("/")));
  else if (request.mode === "navigate" && url.pathname.startsWith("/play/")) event.respondWith(cacheFirst(new Request("/play")));
});
