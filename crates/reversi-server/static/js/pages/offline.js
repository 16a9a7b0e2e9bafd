// Games on this device (/offline): against the computer or two players on one screen, and
// puzzles, with no connection needed. The rules and the computer are the browser's engine (engine.js: the same
// engine as the server's, in a worker); every game is kept in this browser (IndexedDB) after
// each move, so a reload or a closed tab goes on where it was, and a finished game can be added
// to the signed-in account's archive once the server can be reached (POST /api/import). The
// puzzles are the server's pack (/api/puzzles/pack, kept by the service worker: positions, no
// solutions); the browser's solver judges each move by its exact value (unrated).
import { api, errorText } from '../api.js';
import { drawBoard } from '../board.js';
import { $, el, button, go } from '../dom.js';
import { t, variantName, dateText } from '../i18n.js';
import { prefs } from '../prefs.js';
import { STRENGTHS, strengthText } from '../strength.js';
import { localEngine, engineSupported } from '../engine.js';
import { me } from '../account.js';
import { moveSound, endSound } from '../sound.js';
import { META } from '../meta.js';

let P = null;

/** What to say of a failed request: the engine's own failures in the interface's words. */
const said = e => (String(e.code || '').startsWith('engine_') ? errorText(e.code) : e.message);

export function stopOffline() {
  if (P && P.engine) P.engine.close();
  P = null;
}

// ---------- the games kept in this browser ----------

const DB = 'reversi', STORE = 'games';

function db() {
  return new Promise((resolve, reject) => {
    const r = indexedDB.open(DB, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE, { keyPath: 'id' });
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

async function store(mode, f) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const tx = d.transaction(STORE, mode);
    const r = f(tx.objectStore(STORE));
    tx.oncomplete = () => { d.close(); resolve(r && r.result); };
    tx.onerror = () => { d.close(); reject(tx.error); };
  });
}

/** Every game kept here, the newest first. */
export async function keptGames() {
  const all = await store('readonly', s => s.getAll());
  return (all || []).sort((a, b) => b.started - a.started);
}

const keep = g => store('readwrite', s => s.put(g));
const forget = id => store('readwrite', s => s.delete(id));

// ---------- the page ----------

export async function offlinePage(app) {
  document.title = t('web-offline-title') + ' — ' + t('web-title');
  const p = P = { engine: null, game: null, view: null, thinking: false };
  if (!engineSupported()) {
    app.replaceChildren(el('h1', {}, t('web-offline-title')), el('p', { class: 'error' }, t('web-offline-unsupported')));
    return;
  }
  p.engine = localEngine(() => {});
  app.replaceChildren(
    el('h1', {}, t('web-offline-title')),
    el('p', { class: 'lead' }, t('web-offline-lead')),
    el('div', { class: 'game-page offline-page' },
      el('div', { class: 'board-col' },
        el('div', { class: 'board-wrap', id: 'offline-board' }),
        el('div', { class: 'status', id: 'offline-status', role: 'status' }),
        el('div', { class: 'buttons' },
          button(t('web-undo'), { id: 'offline-undo', onclick: undo }, 'undo'),
          button(t('web-offline-analyse'), { id: 'offline-analyse', onclick: analyse }, 'search'))),
      el('aside', { class: 'panel' },
        el('h2', {}, t('web-new-game')),
        setup(),
        el('p', { class: 'error', id: 'offline-error', role: 'alert' }),
        el('div', { class: 'moves', id: 'offline-moves' }))),
    el('section', { class: 'list-box' },
      el('h2', {}, t('web-offline-kept')),
      el('ul', { class: 'games', id: 'offline-games' })),
    el('section', { class: 'list-box offline-puzzles' },
      el('h2', {}, t('web-offline-puzzles')),
      el('p', { class: 'muted' }, t('web-offline-puzzles-lead')),
      el('div', { id: 'offline-puzzle' })));
  const games = await keptGames().catch(() => []);
  if (P !== p) return;
  const current = games.find(g => !g.over);
  await open(p, current || newGame());
  list(games);
  loadPack(p);
}

function setup() {
  const who = el('select', { id: 'offline-opponent' },
    el('option', { value: 'ai' }, t('web-play-computer')), el('option', { value: 'two' }, t('web-play-local')));
  const level = el('select', { id: 'offline-level' });
  for (const [, l] of STRENGTHS) level.append(el('option', { value: l }, strengthText(l)));
  level.value = String(STRENGTHS.map(([, l]) => l).reduce((a, l) => (l <= prefs.level ? l : a), 1));
  const color = el('select', { id: 'offline-color' }, ...['black', 'random', 'white'].map(c => el('option', { value: c }, t('web-color-' + c))));
  color.value = prefs.color || 'black';
  const variant = el('select', { id: 'offline-variant' }, ...META.variants.map(v => el('option', { value: v }, variantName(v))));
  variant.value = META.variants.includes(prefs.variant) ? prefs.variant : 'othello';
  who.onchange = () => { level.disabled = color.disabled = who.value !== 'ai'; };
  return el('div', { class: 'options' },
    el('label', { class: 'option-row' }, el('span', { class: 'option-label' }, t('web-offline-opponent')), who),
    el('label', { class: 'option-row' }, el('span', { class: 'option-label' }, t('web-exact-level')), level),
    el('label', { class: 'option-row' }, el('span', { class: 'option-label' }, t('web-your-color')), color),
    el('label', { class: 'option-row' }, el('span', { class: 'option-label' }, t('web-variant')), variant),
    button(t('web-offline-start'), { id: 'offline-start', class: 'primary', onclick: () => {
      const g = newGame({ ai: who.value === 'ai', level: Number(level.value), color: color.value, variant: variant.value });
      open(P, g);
    } }, 'play'));
}

/** A new game (not kept until its first move). */
function newGame(o = {}) {
  const ai = o.ai ?? true;
  let color = o.color || 'black';
  if (color === 'random') color = Math.random() < 0.5 ? 'black' : 'white';
  return {
    id: Date.now().toString(36) + Math.random().toString(36).slice(2, 8),
    variant: o.variant || 'othello', moves: [], ai, level: o.level || 8, human: ai ? color : null,
    started: Date.now(), over: false, result: null, uploaded: null,
  };
}

async function open(p, g) {
  if (P !== p) return;
  p.game = g;
  await refresh(p);
}

/** The board of the game as it stands, from the engine; the computer moves when it is its turn. */
async function refresh(p) {
  const g = p.game;
  let v;
  try {
    v = await p.engine.ask({ type: 'view', variant: g.variant, moves: g.moves.join('') });
  } catch (e) {
    if (P === p && e.code !== 'superseded') $('#offline-error').textContent = said(e);
    return;
  }
  if (P !== p || p.game !== g) return;
  p.view = v;
  if (!v.to_move && !g.over) {
    g.over = true;
    g.result = v.result;
    if (g.moves.length) { await keep(g).catch(() => {}); endSound(); }
    list(await keptGames().catch(() => []));
  }
  render(p);
  if (!v.to_move) return;
  // A forced pass is played at once, for either side.
  if (v.must_pass) { await play(p, 'pass'); return; }
  if (g.ai && v.to_move !== g.human) think(p);
}

async function think(p) {
  const g = p.game;
  p.thinking = true;
  render(p);
  let r;
  try {
    r = await p.engine.ask({ type: 'best', variant: g.variant, moves: g.moves.join(''), level: g.level, seed: g.moves.length + g.started });
  } catch (e) {
    if (P === p && e.code !== 'superseded') $('#offline-error').textContent = said(e);
    return;
  } finally {
    if (P === p) p.thinking = false;
  }
  if (P !== p || p.game !== g || !r.move) return;
  await play(p, r.move);
}

async function play(p, move) {
  const g = p.game;
  g.moves.push(move);
  if (move !== 'pass') moveSound();
  await keep(g).catch(e => { $('#offline-error').textContent = String(e); });
  await refresh(p);
}

async function undo() {
  const p = P;
  if (!p || p.thinking || !p.game.moves.length) return;
  const g = p.game;
  // A pass goes with the move before it (a position that must pass would pass again at once).
  let last;
  do last = g.moves.pop(); while (last === 'pass' && g.moves.length);
  // Against the computer: back to a position where the player is to move (its reply and any
  // pass go too).
  while (g.ai && g.moves.length) {
    let v;
    try { v = await p.engine.ask({ type: 'view', variant: g.variant, moves: g.moves.join('') }); } catch { break; }
    if (P !== p || p.game !== g) return;
    if (v.to_move === g.human && !v.must_pass) break;
    g.moves.pop();
  }
  g.over = false;
  g.result = null;
  await keep(g).catch(() => {});
  refresh(p);
}

function analyse() {
  const g = P && P.game;
  if (!g) return;
  go('/analysis?' + new URLSearchParams({ variant: g.variant, moves: g.moves.join(''), ply: String(g.moves.length) }));
}

function render(p) {
  const v = p.view, g = p.game;
  if (!v || !$('#offline-board')) return;
  const mine = v.to_move && !p.thinking && !v.must_pass && (!g.ai || v.to_move === g.human);
  $('#offline-board').replaceChildren(drawBoard(v, { legal: mine ? v.legal_moves : [], playable: mine, label: t('web-board'),
    onMove: sq => { if (mine && v.legal_moves.includes(sq)) play(p, sq); } }));
  let status;
  if (!v.to_move) {
    const who = v.result > 0 ? 'black' : v.result < 0 ? 'white' : 'draw';
    status = t('web-outcome', { who, how: 'none' }) + ' · ' + t('web-result-score', { black: v.black_count, white: v.white_count });
  } else if (p.thinking) {
    status = t('web-computer-thinking');
  } else {
    status = g.ai && v.to_move === g.human ? t('web-your-turn') : t('web-turn-of', { color: v.to_move });
  }
  $('#offline-status').textContent = status;
  $('#offline-moves').replaceChildren(...g.moves.map((m, i) => el('span', { class: 'mv' }, `${i + 1}. ${m === 'pass' ? t('web-pass') : m}`)));
  $('#offline-undo').disabled = p.thinking || !g.moves.length;
}

/** The games kept here, each to go on with, analyse, forget or add to the account's archive. */
function list(games) {
  const box = $('#offline-games');
  if (!box) return;
  box.replaceChildren(...games.map(g => {
    const who = g.ai ? t('web-offline-vs-computer', { level: g.level, color: g.human }) : t('web-play-local');
    const result = g.over ? (g.result > 0 ? '1–0' : g.result < 0 ? '0–1' : '½–½') : t('web-status-playing');
    const actions = [
      button(g.over ? t('web-offline-view') : t('web-offline-continue'), { class: 'linkish', onclick: () => open(P, g) }),
      button(t('web-offline-forget'), { class: 'linkish', onclick: async () => { await forget(g.id).catch(() => {}); list(await keptGames().catch(() => [])); } }),
    ];
    if (g.uploaded) actions.push(el('a', { href: '/replay/' + g.uploaded, class: 'offline-uploaded' }, t('web-offline-uploaded')));
    else if (g.over && me()) actions.push(button(t('web-offline-upload'), { class: 'linkish offline-upload', onclick: () => upload(g) }));
    return el('li', { 'data-game': g.id, class: 'offline-game' },
      el('span', { class: 'g-variant' }, variantName(g.variant)), ' ',
      el('span', { class: 'g-players' }, who), ' ',
      el('span', { class: 'g-result' }, result), ' ',
      el('span', { class: 'g-date' }, dateText(Math.floor(g.started / 1000))), ' ', ...actions);
  }));
  if (!games.length) box.append(el('li', { class: 'muted' }, t('web-offline-none')));
}

/** A finished game into the signed-in account's archive (a replay of its own). */
async function upload(g) {
  try {
    const r = await api('POST', '/api/import', { text: g.moves.join(''), variant: g.variant });
    g.uploaded = r.games[0].id;
    await keep(g);
  } catch (e) {
    const box = $('#offline-error');
    if (box) box.textContent = e.message;
  }
  list(await keptGames().catch(() => []));
}

// ---------- puzzles on the device ----------

const SOLVED = 'offline-puzzles-solved';

function solvedIds() {
  try { return new Set(JSON.parse(localStorage.getItem(SOLVED) || '[]')); } catch { return new Set(); }
}

function markSolved(id) {
  const s = solvedIds();
  s.add(id);
  try { localStorage.setItem(SOLVED, JSON.stringify([...s])); } catch { /* storage off */ }
}

const sign = n => (n > 0 ? '+' : n < 0 ? '−' : '') + Math.abs(n);

async function loadPack(p) {
  try { p.pack = (await api('GET', '/api/puzzles/pack')).puzzles; } catch { p.pack = []; }
  if (P === p) nextPuzzle(p);
}

/** The first puzzle of the pack not solved on this device (after `after`, when given). */
function nextPuzzle(p, after) {
  const done = solvedIds();
  const from = after ? p.pack.findIndex(z => z.id === after) + 1 : 0;
  const z = p.pack.slice(from).find(z => !done.has(z.id)) || p.pack.find(z => !done.has(z.id)) || p.pack[0];
  p.puzzle = z ? { z, moves: [], found: 0, state: 'todo', verdict: '' } : null;
  showPuzzle(p);
}

const puzzleView = (p, q) => p.engine.ask({ type: 'view', variant: 'othello', board: q.z.board, moves: q.moves.join('') });

async function showPuzzle(p) {
  const box = $('#offline-puzzle');
  const q = p.puzzle;
  if (!box) return;
  if (!q) { box.replaceChildren(el('p', { class: 'muted' }, t('web-offline-no-puzzles'))); return; }
  let v;
  try { v = await puzzleView(p, q); } catch (e) { box.textContent = said(e); return; }
  if (P !== p || p.puzzle !== q) return;
  const side = q.z.board.trim().endsWith('X') ? 'black' : 'white';
  const mine = q.state !== 'wrong' && q.state !== 'solved' && !q.busy && v.to_move === side;
  const task = t(q.z.win ? 'web-puzzle-find-win' : 'web-puzzle-find-best', { color: side, n: q.z.moves });
  const said = { todo: task, right: t('web-puzzle-right', { n: q.z.moves - q.found }), solved: t('web-puzzle-solved'), wrong: t('web-puzzle-wrong') }[q.state];
  const done = solvedIds();
  box.replaceChildren(
    el('div', { class: 'offline-puzzle', 'data-puzzle': q.z.id, 'data-board': q.z.board, 'data-moves': q.moves.join(''), 'data-state': q.busy ? 'busy' : q.state },
      el('div', { class: 'board-wrap offline-puzzle-board' }, drawBoard(v, { legal: mine ? v.legal_moves : [], playable: mine, label: t('web-board'),
        onMove: sq => { if (mine && v.legal_moves.includes(sq)) tryPuzzleMove(p, q, sq); } })),
      el('div', { class: 'offline-puzzle-side' },
        el('p', { class: 'status', id: 'offline-puzzle-status', role: 'status' }, said),
        el('p', { class: 'meta', id: 'offline-puzzle-verdict' }, q.verdict),
        el('p', { class: 'meta' }, t('web-offline-puzzles-count', { solved: p.pack.filter(z => done.has(z.id)).length, total: p.pack.length })),
        el('div', { class: 'buttons' },
          q.state === 'wrong' ? button(t('web-offline-retry'), { id: 'offline-puzzle-retry', onclick: () => { p.puzzle = { z: q.z, moves: [], found: 0, state: 'todo', verdict: '' }; showPuzzle(p); } }, 'undo') : null,
          button(t('web-puzzle-next'), { id: 'offline-puzzle-next', onclick: () => nextPuzzle(p, q.z.id) }, 'next')))));
}

/** The best of the exact values of the position reached. */
async function bestMove(p, q) {
  const ex = await p.engine.ask({ type: 'exact', variant: 'othello', board: q.z.board, moves: q.moves.join('') });
  const best = ex.moves.reduce((a, m) => (!a || m.score > a.score ? m : a), null);
  return { ex, best };
}

/** Passes while the side to move must pass; the position then reached. */
async function passes(p, q) {
  let v = await puzzleView(p, q);
  while (v.to_move && v.must_pass) { q.moves.push('pass'); v = await puzzleView(p, q); }
  return v;
}

async function tryPuzzleMove(p, q, sq) {
  q.busy = true;
  showPuzzle(p);
  try {
    const { ex, best } = await bestMove(p, q);
    const mine = ex.moves.find(m => m.move === sq);
    if (!mine || mine.score < best.score) {
      q.state = 'wrong';
      q.verdict = t('web-puzzle-wrong-why', { move: sq, score: sign(mine ? mine.score : 0), best: best.move, bestScore: sign(best.score) });
      return;
    }
    q.moves.push(sq);
    q.found++;
    q.verdict = '';
    let v = await passes(p, q);
    if (q.found >= q.z.moves || !v.to_move) { q.state = 'solved'; markSolved(q.z.id); return; }
    // The opponent answers with its best move, as the puzzle's line does.
    const reply = (await bestMove(p, q)).best;
    q.moves.push(reply.move);
    v = await passes(p, q);
    q.state = v.to_move ? 'right' : 'solved';
    if (q.state === 'solved') markSolved(q.z.id);
  } catch (e) {
    q.verdict = said(e);
  } finally {
    q.busy = false;
    if (P === p && p.puzzle === q) showPuzzle(p);
  }
}
