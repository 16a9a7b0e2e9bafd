// The site's service worker (served at /sw.js, so it sees every page of the site): after one
// visit the site's shell, both languages, and the engine load without a network, so that play
// on this device (/offline), the analysis board (on the device's engine) and the rules work
// with no connection. The server writes this build's fingerprint and files into BUILD.
//
// - Pages (navigations): the network first; without one, the cached page (every route of the
//   app is the same page).
// - This build's files (/static/FINGERPRINT/…): from the cache (they never change).
// - The interface's words (/api/i18n/…), the icon and the puzzles for the device
//   (/api/puzzles/pack): the network first, the cache without it.
// - Everything else (the API, the sockets): the network only, as without this worker: a page
//   that needs the server says so when it cannot reach it.
const BUILD = __BUILD__;
const CACHE = 'reversi-' + BUILD.fingerprint;

self.addEventListener('install', ev => {
  ev.waitUntil(caches.open(CACHE).then(c => c.addAll(BUILD.precache)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', ev => {
  ev.waitUntil(caches.keys()
    .then(keys => Promise.all(keys.filter(k => k.startsWith('reversi-') && k !== CACHE).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

/** The network's answer, kept for later; the kept one when the network fails. */
async function networkFirst(req, fallback) {
  const cache = await caches.open(CACHE);
  try {
    const resp = await fetch(req);
    if (resp.ok) cache.put(fallback || req, resp.clone());
    return resp;
  } catch (e) {
    const kept = await cache.match(fallback || req, { ignoreVary: true });
    if (!kept) throw e;
    // Marked, so that the page knows the server was not reached (api.js).
    const headers = new Headers(kept.headers);
    headers.set('X-Offline', '1');
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
  }
}

self.addEventListener('fetch', ev => {
  const req = ev.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate') {
    ev.respondWith(fetch(req).catch(() => caches.open(CACHE).then(c => c.match('/', { ignoreVary: true })).then(r => r || Response.error())));
  } else if (url.pathname.startsWith('/static/' + BUILD.fingerprint + '/')) {
    ev.respondWith(caches.open(CACHE).then(c => c.match(req, { ignoreVary: true })).then(r => r || fetch(req)));
  } else if (url.pathname.startsWith('/api/i18n/') || url.pathname === '/favicon.svg' || url.pathname === '/api/puzzles/pack') {
    ev.respondWith(networkFirst(req));
  }
});
