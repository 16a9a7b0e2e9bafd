// The home page: the board up front, the ways to play (the computer at a named strength, a
// friend by link, two people on this device), the puzzle of the day, the visitor's own games
// and the latest finished.
import { api } from '../api.js';
import { drawBoard } from '../board.js';
import { $, el, go, link, button, icon } from '../dom.js';
import { t, variantName, dateText } from '../i18n.js';
import { prefs, myGames, rememberGame } from '../prefs.js';
import { STRENGTHS, strengthText } from '../strength.js';
import { playerLine, resultLine } from './summary.js';
import { poolsGrid, liveList } from './lobby.js';
import { dailyBox } from './puzzles.js';
import { META } from '../meta.js';
import { me } from '../account.js';
import { liveSocket } from '../live.js';
import { avatar } from '../avatar.js';
import { clockText, controlText } from '../clock.js';

/** The presets offered when a game is created (reversi_site::presets, from the server). */
export const VARIANTS = META.variants;

const START = '...........................OX......XO...........................';

async function start(mode, extra = {}) {
  const err = $('#home-error');
  try {
    const r = await api('POST', '/api/games', Object.assign({ mode, variant: prefs.variant, color: prefs.color, tie: prefs.tie }, extra));
    rememberGame(r.game.id);
    go('/game/' + r.game.id);
  } catch (e) {
    // Without the server, a game against the computer or face to face goes on this device.
    if (e.code === 'offline' && (mode === 'ai' || mode === 'local')) { go('/offline'); return; }
    if (err) err.textContent = e.message;
  }
}

function options() {
  const color = el('div', { class: 'segmented', role: 'radiogroup', 'aria-label': t('web-your-color') });
  for (const c of ['black', 'random', 'white']) {
    const b = el('button', { type: 'button', role: 'radio', 'aria-checked': String(prefs.color === c), 'data-color': c,
      class: 'seg' + (prefs.color === c ? ' on' : ''), onclick: () => {
        prefs.color = c;
        color.querySelectorAll('.seg').forEach(x => { const on = x.dataset.color === c; x.classList.toggle('on', on); x.setAttribute('aria-checked', String(on)); });
      } }, t('web-color-' + c));
    color.append(b);
  }
  const variant = el('select', { id: 'variant', onchange: () => { prefs.variant = variant.value; rules.href = '/rules/' + variant.value; } });
  for (const v of VARIANTS) variant.append(el('option', { value: v }, variantName(v)));
  variant.value = VARIANTS.includes(prefs.variant) ? prefs.variant : 'othello';
  const rules = link('/rules/' + variant.value, t('web-rules-of-variant'), { id: 'rules-link' });
  rules.onclick = ev => { ev.preventDefault(); go('/rules/' + variant.value); };
  const level = el('select', { id: 'level', onchange: () => { prefs.level = Number(level.value); } });
  for (let l = 1; l <= 30; l++) level.append(el('option', { value: l }, strengthText(l)));
  level.value = String(prefs.level);
  const tie = el('select', { id: 'tie', onchange: () => { prefs.tie = tie.value; } },
    el('option', { value: 'draw' }, t('web-tie-draw')), el('option', { value: 'second-wins' }, t('web-tie-second-wins')));
  tie.value = prefs.tie;
  const play = button(t('web-play-level'), { id: 'start', class: 'primary', onclick: () => start('ai', { level: Number(level.value) }) }, 'play');
  return el('div', { class: 'options' },
    el('div', { class: 'option-row' }, el('span', { class: 'option-label' }, t('web-your-color')), color),
    el('label', { class: 'option-row' }, el('span', { class: 'option-label' }, t('web-variant')), variant), el('p', { class: 'option-note' }, rules),
    el('label', { class: 'option-row' }, el('span', { class: 'option-label' }, t('web-tie')), tie),
    el('label', { class: 'option-row' }, el('span', { class: 'option-label' }, t('web-exact-level')), level), play);
}

export async function homePage(app) {
  document.title = t('web-title');
  const chips = el('div', { class: 'strengths', id: 'strengths' });
  for (const [key, level] of STRENGTHS) {
    chips.append(el('button', { type: 'button', class: 'strength', 'data-level': level,
      onclick: () => { prefs.level = level; start('ai', { level }); } },
    el('strong', {}, t('web-strength-' + key)), el('small', {}, t('web-level-n', { level }))));
  }
  const hero = el('section', { class: 'hero' },
    el('div', { class: 'hero-board', id: 'hero-board' }, startBoard()),
    el('div', { class: 'play' },
      el('h1', {}, t('web-hero-title')),
      el('p', { class: 'lead' }, t('web-hero-lead')),
      el('section', { class: 'card', 'aria-labelledby': 'vs-people' },
        el('h2', { id: 'vs-people' }, icon('users'), t('web-play-online')),
        el('div', { id: 'home-pools' }, poolsGrid()),
        el('p', { class: 'lobby-note' }, link('/lobby', t('web-to-lobby'), { id: 'lobby-link' }))),
      el('section', { class: 'card', 'aria-labelledby': 'vs-ai' },
        el('h2', { id: 'vs-ai' }, icon('cpu'), t('web-play-computer')),
        chips,
        el('details', { class: 'more' }, el('summary', {}, t('web-more-options')), options()),
        el('p', { class: 'lobby-note' }, link('/offline', t('web-offline-link'), { id: 'offline-link' }))),
      el('div', { class: 'card-row' },
        el('section', { class: 'card small', 'aria-labelledby': 'vs-friend' },
          el('h2', { id: 'vs-friend' }, icon('link'), t('web-play-friend')),
          el('p', {}, t('web-play-friend-lead')),
          button(t('web-create-invite'), { id: 'friend', onclick: () => start('friend') }, 'link')),
        el('section', { class: 'card small', 'aria-labelledby': 'vs-local' },
          el('h2', { id: 'vs-local' }, icon('users'), t('web-play-local')),
          el('p', {}, t('web-play-local-lead')),
          button(t('web-start-local'), { id: 'local', onclick: () => start('local') }, 'users'))),
      el('p', { class: 'error', id: 'home-error', role: 'alert' })));
  const daily = el('div', { class: 'list-box daily', id: 'daily-box' }, el('h2', {}, t('web-puzzle-daily')), el('p', { class: 'muted' }, '…'));
  const mine = el('section', { class: 'lists' },
    daily,
    el('div', { class: 'list-box' }, el('h2', {}, t('web-live-games')), el('p', { class: 'muted', id: 'players-online' }), el('ul', { class: 'games', id: 'live' }, el('li', { class: 'muted' }, '…'))),
    el('div', { class: 'list-box' }, el('h2', {}, t('web-your-games')), el('ul', { class: 'games', id: 'my-games' }, el('li', { class: 'muted' }, '…'))),
    me() ? el('div', { class: 'list-box', id: 'following-box' }, el('h2', {}, t('web-following')), el('ul', { class: 'games', id: 'following' }, el('li', { class: 'muted' }, '…'))) : null,
    el('div', { class: 'list-box' }, el('h2', {}, t('web-recent-finished')), el('ul', { class: 'games', id: 'recent' }, el('li', { class: 'muted' }, '…')),
      el('p', {}, link('/archive', t('web-to-archive'), { id: 'archive-link' }))));
  stopHome();
  app.replaceChildren(hero, mine);
  fillMine();
  fillFollowing();
  fillRecent();
  fillOnline();
  dailyBox(daily);
}

async function fillOnline() {
  try {
    const [lobby, live] = await Promise.all([api('GET', '/api/lobby'), api('GET', '/api/live')]);
    const box = $('#home-pools');
    if (!box) return;
    box.replaceChildren(poolsGrid(lobby));
    liveList(live);
    feature(live);
  } catch { /* the pools still work when clicked */ }
}

// ---------- the big board ----------

/** The featured game followed on the big board: its socket and the timer that looks for the
 * next one after it ends. */
let TV = null;

/** Leaving the home page: the featured game is no longer followed. */
export function stopHome() {
  if (!TV) return;
  if (TV.socket) TV.socket.close();
  clearTimeout(TV.timer);
  TV = null;
}

/** With nobody playing online, the big board is a game to begin: a click on one of Black's
 * first moves starts a game against the computer at the chosen strength with that move. */
function startBoard() {
  const strength = strengthText(prefs.level);
  return el('figure', { class: 'hero-figure' },
    drawBoard({ width: 8, height: 8, cells: START, flipped: [] }, {
      legal: ['d3', 'c4', 'f5', 'e6'], playable: true, onMove: firstMove,
      label: t('web-hero-play', { strength }),
    }),
    el('figcaption', { class: 'hero-caption', id: 'hero-caption' }, t('web-hero-play', { strength })));
}

async function firstMove(sq) {
  const err = $('#home-error');
  try {
    const r = await api('POST', '/api/games', { mode: 'ai', variant: 'othello', color: 'black', tie: prefs.tie, level: prefs.level });
    rememberGame(r.game.id);
    await api('POST', `/api/games/${r.game.id}/moves`, { move: sq, ply: 0 });
    go('/game/' + r.game.id);
  } catch (e) {
    if (e.code === 'offline') { go('/offline'); return; }
    if (err) err.textContent = e.message;
  }
}

/** The featured game (the highest rated being played) on the big board, followed move by
 * move through its preview socket (which counts no spectator and carries no chat); a click
 * opens it. When it ends, the next one is looked for a few seconds later. */
function feature(live) {
  const id = live.featured, summary = live.games.find(g => g.id === id);
  if (!id || !summary || (TV && TV.id === id)) return;
  stopHome();
  const tv = TV = { id, socket: null, timer: null };
  tv.socket = liveSocket(`/api/games/${id}/ws?preview=true`, msg => {
    if (TV !== tv || msg.type !== 'state') return;
    const g = msg.game, box = $('#hero-board');
    if (!box) { stopHome(); return; }
    const side = s => `${s.name || t('web-player-guest')}${s.rating ? ` (${s.rating})` : ''}`;
    box.replaceChildren(el('figure', { class: 'hero-figure featured-game', 'data-game': id },
      link('/game/' + id, drawBoard(g, { label: t('web-featured-game') }), { class: 'hero-link', 'aria-label': t('web-featured-game') }),
      el('figcaption', { class: 'hero-caption', id: 'hero-caption' },
        el('strong', {}, t('web-featured-game')), ' ',
        el('span', { class: 'stone black', 'aria-hidden': 'true' }), ' ', side(summary.black), ' – ',
        el('span', { class: 'stone white', 'aria-hidden': 'true' }), ' ', side(summary.white),
        summary.control ? ` · ${controlText(summary.control)}` : '')));
    if (g.status !== 'playing') {
      // Over: shown a moment, then the next featured game, or the board to play.
      tv.socket.close();
      tv.timer = setTimeout(async () => {
        if (TV !== tv) return;
        TV = null;
        try {
          const next = await api('GET', '/api/live');
          if (!$('#hero-board')) return;
          if (next.featured && next.featured !== id) feature(next);
          else $('#hero-board').replaceChildren(startBoard());
        } catch { /* the board stays as it is */ }
      }, 6000);
    }
  });
}

/** "Your games": an account's games in progress (from the server, so every device shows them,
 * those waiting for a move first), then the other games this browser played. */
async function fillMine() {
  const box = $('#my-games');
  try {
    const account = me() ? (await api('GET', '/api/account/games')).games : [];
    const ids = myGames().map(g => g.id).filter(id => !account.some(a => a.id === id)).slice(0, 20);
    const r = ids.length ? await api('GET', '/api/games?ids=' + ids.join(',')) : { games: [] };
    if (!box.isConnected) return;
    box.replaceChildren(...account.map(accountItem), ...r.games.map(g => gameItem(g, '/game/' + g.id)));
    if (!box.children.length) box.append(el('li', { class: 'muted' }, t('web-no-games-yet')));
  } catch (e) { box.replaceChildren(el('li', { class: 'error' }, e.message)); }
}

/** One of the account's games in progress: the opponent, the control, whose move. */
function accountItem(g) {
  const opponent = (g.opponent ?? t('web-player-guest')) + (g.opponent_rating ? ` (${g.opponent_rating})` : '');
  return el('li', { class: g.your_turn ? 'your-turn' : null, 'data-game': g.id }, link('/game/' + g.id, [
    el('span', { class: 'g-variant' }, el('span', { class: `stone ${g.color}`, 'aria-hidden': 'true' }), ' ', variantName(g.variant)),
    el('span', { class: 'g-players' }, t('web-versus', { name: opponent })),
    el('span', { class: 'g-result' + (g.your_turn ? ' turn-badge' : '') }, g.your_turn ? t('web-your-games-turn') : t('web-their-turn')),
    el('span', { class: 'g-date' }, [controlText(g.control), g.time_left_ms !== null && g.time_left_ms !== undefined ? t('web-time-left', { time: clockText(g.time_left_ms) }) : null].filter(Boolean).join(' · ')),
  ], { class: 'game-item' }));
}

/** The players the account follows: online first, each with the games it plays now. */
async function fillFollowing() {
  const box = $('#following');
  if (!box) return;
  try {
    const r = await api('GET', '/api/account/people');
    if (!box.isConnected) return;
    box.replaceChildren(...r.following.slice(0, 30).map(f => el('li', { class: 'followed', 'data-name': f.name },
      el('span', { class: 'presence ' + (f.online ? 'here' : 'gone'), title: t(f.online ? 'web-online' : 'web-offline-player'), 'aria-label': t(f.online ? 'web-online' : 'web-offline-player') }),
      avatar(f.name), link('/@/' + encodeURIComponent(f.name), f.name, { class: 'followed-name' }),
      ...f.playing.map(id => link('/game/' + id, t('web-watch-game'), { class: 'watch-link', 'data-game': id })))));
    if (!r.following.length) box.append(el('li', { class: 'muted' }, t('web-following-none')));
  } catch (e) { box.replaceChildren(el('li', { class: 'error' }, e.message)); }
}

async function fillRecent() {
  const box = $('#recent');
  try {
    const r = await api('GET', '/api/games?status=finished&limit=8');
    if (!box.isConnected) return;
    box.replaceChildren();
    for (const g of r.games) box.append(gameItem(g, '/replay/' + g.id));
    if (!r.games.length) box.append(el('li', { class: 'muted' }, t('web-archive-empty')));
  } catch (e) { box.replaceChildren(el('li', { class: 'error' }, e.message)); }
}

function gameItem(g, path) {
  return el('li', {}, link(path, [
    el('span', { class: 'g-variant' }, variantName(g.variant)),
    el('span', { class: 'g-players' }, playerLine(g)),
    el('span', { class: 'g-result' }, resultLine(g)),
    el('span', { class: 'g-date' }, dateText(g.finished_at || g.updated_at)),
  ], { class: 'game-item' }));
}
