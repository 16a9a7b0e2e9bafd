// The lobby (/lobby): the quick-pairing pools as a grid (one click to wait in one), the open
// seeks (accept one, or make one), and the games being played now, all pushed through the
// page's live socket (/api/lobby/ws). When one of the visitor's seeks becomes a game, it goes
// there.
import { api } from '../api.js';
import { $, el, go, link, button } from '../dom.js';
import { liveSocket } from '../live.js';
import { t, variantName } from '../i18n.js';
import { me } from '../account.js';
import { rememberGame } from '../prefs.js';
import { META } from '../meta.js';
import { declinedNotice, refreshTurns } from '../turns.js';
import { controlText } from '../clock.js';

/** The pools (reversi_site::pairing::POOLS, from the server) and their rating categories. */
export const POOLS = META.pools.map((p) => [p.control, p.category]);
const CONTROLS = [...META.live_controls, ...META.correspondence_controls];
const SEEK_VARIANTS = META.online_variants;

let L = null;

export function stopLobby() {
  if (L && L.live) L.live.close();
  L = null;
}

/** The pool waited in: which, since when (this page's clock), and the ticker that says how
 * far the accepted rating range has widened. */
let WAIT = null;

/** What a waiting player accepts after `ms` (reversi_site::pairing, from the server). */
function rangeText(ms) {
  const w = META.pairing;
  if (ms >= w.anyone_after_s * 1000) return t('web-pool-anyone');
  return t('web-pool-range', { gap: Math.round(w.start_gap + w.gap_per_second * ms / 1000) });
}

function tickWait() {
  const box = document.getElementById('pool-range');
  if (!WAIT || !box) { if (WAIT) { clearInterval(WAIT.timer); WAIT.timer = null; } return; }
  box.textContent = rangeText(performance.now() - WAIT.since);
}

/** The pools grid (the home page shows it too): a click waits in the pool, a second leaves.
 * The pool waited in says so, and how wide the rating range it accepts has grown. */
export function poolsGrid(state = {}) {
  const grid = el('div', { class: 'pools', id: 'pools' });
  if (state.waiting_in && (!WAIT || WAIT.control !== state.waiting_in)) {
    if (WAIT) clearInterval(WAIT.timer);
    WAIT = { control: state.waiting_in, since: performance.now() - (state.waited_ms || 0), timer: null };
  } else if (state.pools && !state.waiting_in && WAIT) {
    clearInterval(WAIT.timer);
    WAIT = null;
  }
  for (const [control, speed] of POOLS) {
    const waiting = state.waiting_in === control;
    const n = (state.pools || []).find(p => p.control === control);
    grid.append(el('button', { type: 'button', class: 'pool' + (waiting ? ' waiting' : ''), 'data-pool': control,
      'aria-pressed': String(waiting), onclick: () => togglePool(control, waiting) },
    el('strong', {}, controlText(control)), el('span', {}, t('web-speed-' + speed)),
    el('small', {}, waiting ? t('web-pool-searching') : t('web-pool-waiting', { n: n ? n.waiting : 0 })),
    waiting ? el('small', { class: 'pool-range', id: 'pool-range' }, rangeText(performance.now() - WAIT.since)) : null));
  }
  if (WAIT && !WAIT.timer) WAIT.timer = setInterval(tickWait, 1000);
  return grid;
}

async function togglePool(control, waiting) {
  try {
    if (waiting) await api('DELETE', '/api/pools');
    else await api('POST', '/api/pools/' + encodeURIComponent(control), {});
    if (location.pathname !== '/lobby') go('/lobby'); else refresh();
  } catch (e) { const err = $('#lobby-error') || $('#home-error'); if (err) err.textContent = e.message; }
}

export async function lobbyPage(app) {
  stopLobby();
  const l = L = { live: null, seen: new Set(JSON.parse(sessionStorage.getItem('seen-games') || '[]')) };
  document.title = t('web-lobby') + ' — ' + t('web-title');
  app.replaceChildren(el('div', { class: 'lobby' },
    el('section', { class: 'card' }, el('h1', {}, t('web-quick-pairing')), el('div', { id: 'pools-box' }, poolsGrid())),
    el('section', { class: 'card' }, el('h2', {}, t('web-create-seek')), seekForm(), el('p', { class: 'error', id: 'lobby-error', role: 'alert' })),
    el('section', { class: 'card' }, el('h2', {}, t('web-open-seeks')), el('div', { id: 'seeks' }, el('p', { class: 'muted' }, '…'))),
    el('section', { class: 'card' }, el('h2', {}, t('web-live-games')), el('p', { class: 'muted', id: 'players-online' }), el('ul', { class: 'games', id: 'live' }, el('li', { class: 'muted' }, '…')))));
  l.live = liveSocket('/api/lobby/ws', msg => {
    if (L !== l) return;
    if (msg.type === 'lobby') showLobby(l, msg.lobby);
    else if (msg.type === 'live') liveList(msg.live);
    else if (msg.type === 'error') $('#lobby-error').textContent = msg.error;
  });
}

function seekForm() {
  const variant = el('select', { id: 'seek-variant' });
  for (const v of SEEK_VARIANTS) variant.append(el('option', { value: v }, variantName(v)));
  const control = el('select', { id: 'seek-control' });
  for (const c of CONTROLS) control.append(el('option', { value: c }, controlText(c)));
  control.value = '5+3';
  const colour = el('select', { id: 'seek-colour' });
  for (const c of ['random', 'black', 'white']) colour.append(el('option', { value: c }, t('web-color-' + c)));
  const rated = el('input', { type: 'checkbox', id: 'seek-rated', checked: Boolean(me()), disabled: !me() });
  const to = el('input', { id: 'seek-to', maxlength: 20, placeholder: t('web-challenge-placeholder'), autocomplete: 'off' });
  // The ratings of the opponents the seek accepts (either end may stay open).
  const low = el('input', { id: 'seek-min', type: 'number', min: 0, max: 4000, step: 50, inputmode: 'numeric', placeholder: t('web-rating-from'), 'aria-label': t('web-rating-range') + ', ' + t('web-rating-from') });
  const high = el('input', { id: 'seek-max', type: 'number', min: 0, max: 4000, step: 50, inputmode: 'numeric', placeholder: t('web-rating-to'), 'aria-label': t('web-rating-range') + ', ' + t('web-rating-to') });
  const form = el('form', { class: 'seek-form', onsubmit: async ev => {
    ev.preventDefault();
    const body = { variant: variant.value, control: control.value, colour: colour.value, rated: rated.checked };
    if (to.value.trim()) body.to = to.value.trim();
    if (low.value || high.value) body.range = [Number(low.value || 0), Number(high.value || 4000)];
    try { await api('POST', '/api/seeks', body); $('#lobby-error').textContent = ''; to.value = ''; refresh(); }
    catch (e) { $('#lobby-error').textContent = e.message; }
  } },
  el('label', {}, el('span', {}, t('web-variant')), variant),
  el('label', {}, el('span', {}, t('web-time-control')), control),
  el('label', {}, el('span', {}, t('web-your-color')), colour),
  el('label', { class: 'check' }, rated, el('span', {}, me() ? t('web-rated') : t('web-rated-needs-account'))),
  el('div', { class: 'range-row', role: 'group', 'aria-label': t('web-rating-range') }, el('span', {}, t('web-rating-range')), el('span', { class: 'range-inputs' }, low, '–', high)),
  el('label', {}, el('span', {}, t('web-challenge-player')), to),
  button(t('web-create-seek-button'), { type: 'submit', id: 'seek-create', class: 'primary' }, 'plus'));
  return form;
}

/** Reads the lobby once, after the visitor's own action (the socket brings it too; this is at
 *  once, and shows an error where there is one). */
async function refresh() {
  const l = L;
  if (!l) return;
  try {
    const r = await api('GET', '/api/lobby');
    if (L !== l) return;
    showLobby(l, r);
    $('#lobby-error').textContent = '';
  } catch (e) { if (L === l) $('#lobby-error').textContent = e.message; }
}

function showLobby(l, r) {
  for (const s of r.started) {
    if (l.seen.has(s.game)) continue;
    l.seen.add(s.game);
    sessionStorage.setItem('seen-games', JSON.stringify([...l.seen].slice(-50)));
    rememberGame(s.game);
    go('/game/' + s.game);
    return;
  }
  $('#pools-box').replaceChildren(poolsGrid(r));
  seeksTable(r.seeks);
  declinedNotice(r.declined || []);
}

function who(name, rating, bot) {
  return [name === null || name === undefined ? t('web-player-guest') : name, bot ? el('span', { class: 'bot-tag' }, t('web-bot')) : null,
    rating ? el('span', { class: 'rating' }, ' ' + rating) : null];
}

function seeksTable(seeks) {
  const box = $('#seeks');
  if (!seeks.length) { box.replaceChildren(el('p', { class: 'muted' }, t('web-no-seeks'))); return; }
  const body = el('tbody', {});
  for (const s of seeks) {
    const action = s.mine
      ? button(t('web-cancel'), { class: 'small', 'data-cancel': s.id, onclick: () => cancel(s.id) }, 'x')
      : [button(t('web-accept'), { class: 'small primary', 'data-accept': s.id, onclick: () => accept(s.id) }, 'play'),
        s.for_you ? button(t('web-decline'), { class: 'small', 'data-decline': s.id, onclick: () => decline(s.id) }, 'x') : null];
    body.append(el('tr', { class: s.for_you ? 'for-you' : null },
      el('td', {}, who(s.name, s.rating, s.bot)),
      el('td', {}, variantName(s.variant)),
      el('td', {}, controlText(s.control), ' ', el('small', { class: 'muted' }, t('web-speed-' + s.speed))),
      el('td', {}, s.rated ? t('web-rated') : t('web-casual'), s.range ? el('small', { class: 'muted seek-range' }, ` ${s.range[0]}–${s.range[1]}`) : null),
      el('td', {}, t('web-color-' + s.colour)),
      el('td', {}, action)));
  }
  box.replaceChildren(el('table', { class: 'seeks' },
    el('thead', {}, el('tr', {}, ...['web-player', 'web-variant', 'web-time-control', 'web-mode', 'web-their-color', ''].map(k => el('th', { scope: 'col' }, k ? t(k) : '')))),
    body));
}

async function decline(id) {
  try { await api('POST', `/api/seeks/${id}/decline`, {}); refresh(); refreshTurns(); }
  catch (e) { $('#lobby-error').textContent = e.message; }
}

async function accept(id) {
  try {
    const r = await api('POST', `/api/seeks/${id}/accept`, {});
    rememberGame(r.game.id);
    L.seen.add(r.game.id);
    go('/game/' + r.game.id);
  } catch (e) { $('#lobby-error').textContent = e.message; refresh(); }
}

async function cancel(id) {
  try { await api('DELETE', '/api/seeks/' + id); } catch (e) { $('#lobby-error').textContent = e.message; }
  refresh();
}

/** The games being played now, the featured one first. */
export function liveList(live) {
  const box = $('#live');
  if (!box) return;
  const online = $('#players-online');
  // Said once someone is there: a guest alone is not counted (only accounts are).
  if (online) online.textContent = live.players_online ? t('web-players-online', { n: live.players_online }) : '';
  box.replaceChildren();
  const games = [...live.games].sort((a, b) => (b.id === live.featured) - (a.id === live.featured));
  for (const g of games.slice(0, 20)) {
    box.append(el('li', { class: g.id === live.featured ? 'featured' : null }, link('/game/' + g.id, [
      el('span', { class: 'g-players' }, '● ', who(g.black.name, g.black.rating, g.black.bot), ' · ○ ', who(g.white.name, g.white.rating, g.white.bot)),
      el('span', { class: 'g-variant' }, variantName(g.variant), ' ', controlText(g.control)),
      el('span', { class: 'g-result' }, t('web-watchers', { n: g.watchers })),
    ], { class: 'game-item' })));
  }
  if (!games.length) box.append(el('li', { class: 'muted' }, t('web-no-live-games')));
}
