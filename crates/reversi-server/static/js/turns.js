// "Your turn", site-wide: the signed-in account's games in progress (pushed by the account's
// socket, GET /api/account/ws, or read from GET /api/account/games; the same on every
// device), the header's count of games waiting for a move, the count in the tab's title, a
// sound when a game starts waiting, and — when the visitor allowed it — a browser
// notification while the tab is in the background. The same list brings the challenges
// addressed to the account (a notice on every page, with Accept and Decline), and what became
// of its own: a seek taken goes to its game, a declined challenge is said.
import { api } from './api.js';
import { $, el, link, go, button } from './dom.js';
import { t, variantName } from './i18n.js';
import { me } from './account.js';
import { prefs, rememberGame } from './prefs.js';
import { turnSound } from './sound.js';
import { controlText } from './clock.js';
import { liveSocket } from './live.js';

/** How often the list is read while the tab is visible, and while it is hidden (ms), when the
 * account's socket is not open; with it open, every change is pushed and a read every five
 * minutes only makes up for a lost notification. */
const EVERY_MS = 15000;
const HIDDEN_EVERY_MS = 60000;
const PUSHED_EVERY_MS = 300000;

let games = [];
let waiting = new Set();
let timer = null;
let started = false;
const listeners = new Set();
/** The account's socket (GET /api/account/ws) and whose it is. */
let feed = null;
let feedFor = null;

/** The account's games in progress as last read ([] for a guest). */
export const myTurnGames = () => games;

/** Calls `f(games)` after every read of the list (until the returned function is called). */
export function onTurns(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Opens the account's socket once signed in (closes it on signing out): the server pushes the
 * list whenever a game of the account changes turn, begins or ends, and with each challenge. */
function follow() {
  const who = me() ? me().name : null;
  if (who === feedFor) return;
  if (feed) feed.close();
  feed = null;
  feedFor = who;
  if (who) feed = liveSocket('/api/account/ws', msg => { if (msg.type === 'games' && feedFor === who) apply(msg.games); });
}

/** Reads the list now (after a move, a game's end, signing in or out); with the account's
 * socket open the server pushes every change, and only the count is drawn again. */
export async function refreshTurns() {
  clearTimeout(timer);
  timer = null;
  follow();
  if (!me()) {
    games = []; waiting = new Set();
    started = true;
    badge();
    for (const f of listeners) f(games);
  } else if (feed && feed.open && started) {
    badge();
  } else {
    try { apply(await api('GET', '/api/account/games')); } catch { /* the count stays as it was; the next read tries again */ }
  }
  // Reads overlap (a page change during a move's read): only the last one's timer may stay,
  // or every overlap would start another polling chain.
  clearTimeout(timer);
  timer = setTimeout(refreshTurns, feed && feed.open ? PUSHED_EVERY_MS : document.hidden ? HIDDEN_EVERY_MS : EVERY_MS);
}

/** A new reading of the list (read, or pushed): the count, a knock for a game that starts
 * waiting, the challenges and what became of the account's own. */
function apply(r) {
  const now = new Set(r.games.filter(g => g.your_turn).map(g => g.id));
  const fresh = r.games.filter(g => g.your_turn && !waiting.has(g.id));
  // A game that starts waiting while the visitor is elsewhere: a knock, and a notification
  // if the tab is hidden (the game's own page does this for the game it shows).
  if (started && fresh.length && !location.pathname.startsWith('/game/' + fresh[0].id)) {
    turnSound();
    notifyTurn(fresh[0].opponent || t('web-player-guest'), fresh[0].id);
  }
  games = r.games; waiting = now;
  challengeNotices(r.challenges || []);
  startedGames(r.started || []);
  declinedNotice(r.declined || []);
  started = true;
  badge();
  for (const f of listeners) f(games);
}

/** The header's count and the title's "(N)". */
function badge() {
  const n = waiting.size;
  const box = $('#turns');
  if (box) {
    box.replaceChildren(...(n ? [link('/', [el('span', { class: 'turn-dot', 'aria-hidden': 'true' }), String(n)],
      { id: 'turn-count', class: 'turn-count', title: t('web-turn-count', { n }), 'aria-label': t('web-turn-count', { n }) })] : []));
  }
  titleCount();
}

/** Puts "(N) " before the tab's title (pages set the rest of it). */
export function titleCount() {
  const bare = document.title.replace(/^\(\d+\) /, '');
  const n = waiting.size;
  const title = n ? `(${n}) ${bare}` : bare;
  if (document.title !== title) document.title = title;
}

/** A notification "Your move against NAME" while the tab is hidden, if the visitor allowed
 *  them; a click on it brings the game. */
export function notifyTurn(name, id) {
  if (!document.hidden || !prefs.notify || !('Notification' in window) || Notification.permission !== 'granted') return;
  try {
    const n = new Notification(t('web-title'), { body: t('web-your-turn-notice', { name }), tag: 'turn-' + id });
    n.onclick = () => { window.focus(); if (!location.pathname.endsWith('/game/' + id)) location.assign('/game/' + id); n.close(); };
  } catch { /* notifications need a secure context on some browsers */ }
}

// ---------- challenges ----------

const seen = key => { try { return new Set(JSON.parse(sessionStorage.getItem(key) || '[]')); } catch { return new Set(); } };
const remember = (key, set) => { try { sessionStorage.setItem(key, JSON.stringify([...set].slice(-50))); } catch { /* private mode */ } };
let knownChallenges = null;

/** "5+3 · Othello · rated": what a seek offers. */
const offer = c => [controlText(c.control), variantName(c.variant), c.rated ? t('web-rated') : t('web-casual')].join(' · ');

/** One notice per challenge addressed to the player, on whatever page they are. */
function challengeNotices(challenges) {
  const box = $('#notices');
  if (!box) return;
  const fresh = knownChallenges ? challenges.filter(c => !knownChallenges.has(c.id)) : [];
  knownChallenges = new Set(challenges.map(c => c.id));
  if (fresh.length) {
    turnSound();
    const c = fresh[0];
    if (document.hidden && prefs.notify && 'Notification' in window && Notification.permission === 'granted') {
      try { new Notification(t('web-title'), { body: t('web-challenge-from', { name: c.name ?? t('web-player-guest'), what: offer(c) }), tag: 'challenge-' + c.id }); } catch { /* not allowed here */ }
    }
  }
  for (const n of [...box.querySelectorAll('[data-challenge]')]) {
    if (!knownChallenges.has(n.dataset.challenge)) n.remove();
  }
  for (const c of challenges) {
    if (box.querySelector(`[data-challenge="${c.id}"]`)) continue;
    const name = (c.name ?? t('web-player-guest')) + (c.rating ? ` (${c.rating})` : '');
    const err = el('span', { class: 'error' });
    box.append(el('div', { class: 'site-notice challenge', 'data-challenge': c.id, role: 'alert' },
      el('span', { class: 'notice-text' }, t('web-challenge-from', { name, what: offer(c) })),
      el('span', { class: 'notice-actions' },
        button(t('web-accept'), { class: 'small primary', 'data-accept-challenge': c.id, onclick: async () => {
          try {
            const r = await api('POST', `/api/seeks/${c.id}/accept`, {});
            rememberGame(r.game.id);
            box.querySelector(`[data-challenge="${c.id}"]`)?.remove();
            go('/game/' + r.game.id);
          } catch (e) { err.textContent = e.message; }
        } }, 'play'),
        button(t('web-decline'), { class: 'small', 'data-decline-challenge': c.id, onclick: async () => {
          try { await api('POST', `/api/seeks/${c.id}/decline`, {}); } catch (e) { err.textContent = e.message; return; }
          box.querySelector(`[data-challenge="${c.id}"]`)?.remove();
          refreshTurns();
        } }, 'x')),
      err));
  }
}

/** A seek of the player's that became a game: go to it (once; the lobby page does the same). */
function startedGames(started) {
  const done = seen('seen-games');
  const next = started.find(s => !done.has(s.game));
  for (const s of started) done.add(s.game);
  remember('seen-games', done);
  if (next && !location.pathname.startsWith('/game/' + next.game)) {
    rememberGame(next.game);
    go('/game/' + next.game);
  }
}

/** The player's challenges declined: said once each, until dismissed. */
export function declinedNotice(declined) {
  const box = $('#notices');
  if (!box) return;
  const done = seen('seen-declines');
  for (const d of declined) {
    if (done.has(d.seek)) continue;
    done.add(d.seek);
    const n = el('div', { class: 'site-notice declined', 'data-declined': d.seek, role: 'status' },
      el('span', { class: 'notice-text' }, t('web-challenge-declined', { name: d.by })),
      button('×', { class: 'small', 'aria-label': t('web-close'), onclick: () => n.remove() }));
    box.append(n);
  }
  remember('seen-declines', done);
}

window.addEventListener('app:me', () => refreshTurns());
document.addEventListener('visibilitychange', () => { if (!document.hidden && started) refreshTurns(); });
// The title's count survives a page that sets its own title.
new MutationObserver(titleCount).observe(document.querySelector('title'), { childList: true });
