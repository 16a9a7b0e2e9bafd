// The game database explorer, a tab of the analysis board: for the board's position (standard
// Othello from the start), every next move of the database's games with its count, Black's
// wins, draws and losses and the mean final disc difference, filters (player, tournament,
// years, source), and the games that reached the position — each opens on the analysis board
// at that ply. GET /api/explorer answers; a click on a move plays it on the board.
import { api } from '../api.js';
import { $, el, button, link } from '../dom.js';
import { t } from '../i18n.js';

let E = null;

/** The explorer's box; `play(move)` plays a move on the board. */
export function explorerBox(play) {
  E = { key: null, play, timer: null, offset: 0 };
  const input = (id, attrs) => el('input', Object.assign({ id, onchange: () => refresh(true) }, attrs));
  const player = input('ex-player', { placeholder: t('web-explorer-player'), 'aria-label': t('web-explorer-player'), list: 'ex-players', maxlength: 60, autocomplete: 'off',
    oninput: ev => suggest(ev.target.value) });
  const source = el('select', { id: 'ex-source', 'aria-label': t('web-explorer-source'), onchange: () => refresh(true) },
    ...['', 'wthor', 'ggf', 'site'].map(s => el('option', { value: s }, t('web-explorer-source-' + (s || 'all')))));
  return el('div', { class: 'explorer', id: 'explorer' },
    el('div', { class: 'explorer-filters' },
      player, el('datalist', { id: 'ex-players' }),
      input('ex-tournament', { placeholder: t('web-explorer-tournament'), 'aria-label': t('web-explorer-tournament'), maxlength: 60 }),
      input('ex-from', { type: 'number', min: 1900, max: 2100, placeholder: t('web-explorer-from'), 'aria-label': t('web-explorer-from') }),
      input('ex-to', { type: 'number', min: 1900, max: 2100, placeholder: t('web-explorer-to'), 'aria-label': t('web-explorer-to') }),
      source),
    el('p', { class: 'muted', id: 'ex-total', role: 'status' }),
    el('div', { class: 'explorer-table' }, el('table', { class: 'explorer-moves', id: 'ex-moves' })),
    el('h3', {}, t('web-explorer-games')),
    el('ul', { class: 'games explorer-games', id: 'ex-games' }),
    el('div', { class: 'buttons' }, button(t('web-explorer-more'), { id: 'ex-more', hidden: true, onclick: () => { E.offset += 20; refresh(false); } })));
}

export function stopExplorer() {
  if (E && E.timer) clearTimeout(E.timer);
  E = null;
}

async function suggest(prefix) {
  if (!E || prefix.trim().length < 2) return;
  try {
    const r = await api('GET', '/api/explorer/players?q=' + encodeURIComponent(prefix));
    $('#ex-players').replaceChildren(...r.players.map(p => el('option', { value: p.name }, `${p.name} (${p.games})`)));
  } catch { /* suggestions are a help only */ }
}

/** Shows the position after `moves` (standard Othello from the start); `null`: not available. */
export function showExplorer(moves) {
  if (!E) return;
  E.moves = moves;
  refresh(true);
}

function query() {
  const q = new URLSearchParams({ moves: E.moves.filter(m => m !== 'pass').join('') });
  for (const [k, id] of [['player', 'ex-player'], ['tournament', 'ex-tournament'], ['from', 'ex-from'], ['to', 'ex-to'], ['source', 'ex-source']]) {
    const v = $('#' + id) && $('#' + id).value.trim();
    if (v) q.set(k, v);
  }
  return q;
}

function refresh(fresh) {
  if (!E || E.moves === null || E.moves === undefined) return;
  if (fresh) E.offset = 0;
  const q = query();
  q.set('offset', String(E.offset));
  const key = q.toString();
  if (key === E.key) return;
  E.key = key;
  if (E.timer) clearTimeout(E.timer);
  E.timer = setTimeout(() => load(key, fresh), 120);
}

async function load(key, fresh) {
  const e = E;
  let r;
  try { r = await api('GET', '/api/explorer?' + key); } catch (err) { if (E === e) $('#ex-total').textContent = err.message; return; }
  if (E !== e || e.key !== key) return;
  $('#ex-total').textContent = r.total ? t('web-explorer-total', { n: r.total }) : t(r.empty ? 'web-explorer-empty' : 'web-explorer-none');
  // A click anywhere on a row plays its move (the move's button stays for the keyboard).
  const rows = r.moves.map(m => el('tr', { 'data-move': m.move, class: 'clickable', onclick: ev => { if (!ev.target.closest('button, a')) e.play(m.move); } },
      el('td', {}, button(m.move, { class: 'linkish', onclick: () => e.play(m.move) })),
      el('td', { class: 'num' }, String(m.games)),
      el('td', { class: 'num' }, `${Math.round(m.share * 100)} %`),
      el('td', { class: 'wdl', title: t('web-explorer-wdl', { w: m.black_wins, d: m.draws, l: m.black_losses }) },
        el('span', { class: 'wdl-bar' },
          el('span', { class: 'w', style: `width:${pctOf(m.black_wins, m.games)}%` }),
          el('span', { class: 'd', style: `width:${pctOf(m.draws, m.games)}%` }),
          el('span', { class: 'l', style: `width:${pctOf(m.black_losses, m.games)}%` }))),
      el('td', { class: 'num' }, signed(m.mean_margin)),
      // The names cut to the column's width (all of them on hover): a long list never
      // widens the table past a phone's screen.
      el('td', { class: 'muted players', title: m.players.join(', ') }, m.players.join(', '))));
  $('#ex-moves').replaceChildren(
    // The results' header is long: a phone shows its short form (the whole on hover).
    el('thead', {}, el('tr', {}, ...['web-explorer-move', 'web-explorer-count', 'web-explorer-share', 'web-explorer-results', 'web-explorer-mean', 'web-explorer-players'].map(k => k === 'web-explorer-results'
      ? el('th', { scope: 'col', title: t(k) }, el('span', { class: 'long' }, t(k)), el('span', { class: 'short' }, t('web-explorer-results-short')))
      : el('th', { scope: 'col' }, t(k))))),
    el('tbody', {}, ...rows));
  const list = $('#ex-games');
  if (fresh) list.replaceChildren();
  for (const g of r.games) {
    const href = '/analysis?' + new URLSearchParams({ variant: 'othello', moves: g.moves, ply: String(g.ply) });
    list.append(el('li', {}, link(href, [
      el('span', { class: 'g-players' }, `${g.black} – ${g.white}`),
      el('span', { class: 'g-variant' }, [g.tournament, g.year || ''].filter(Boolean).join(' · ')),
      el('span', { class: 'g-result' }, signed(g.margin))], { class: 'game-item' })));
  }
  $('#ex-more').hidden = r.games.length < 20;
}

/** A disc difference with its sign, the minus a real one. */
const signed = n => (n > 0 ? '+' : n < 0 ? '−' : '') + Math.abs(n);

const pctOf = (n, of) => (of ? (100 * n / of).toFixed(1) : 0);
