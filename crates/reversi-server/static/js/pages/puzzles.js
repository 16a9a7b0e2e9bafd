// Puzzles (/puzzles, /puzzles/ID, /puzzles/daily): find the one move that keeps the best result
// in a position from a real game. The server checks each move (the page never has the
// solution before the end), plays the opponent's replies, and at the end shows the solution,
// the exact scores and the coach's reasons for a wrong move; a signed-in player's first try
// at a puzzle moves their puzzle rating. Themes narrow the choice; a guest's recent puzzles
// are remembered on this device so they do not come back at once.
import { api } from '../api.js';
import { drawBoard } from '../board.js';
import { $, el, button, link, go, announce, icon } from '../dom.js';
import { t } from '../i18n.js';
import { coachItems } from '../coach.js';
import { moveSound } from '../sound.js';

let P = null;
const SEEN_KEY = 'rv-puzzles-seen';
const THEME_KEY = 'rv-puzzle-theme';

const seen = () => { try { return JSON.parse(localStorage.getItem(SEEN_KEY)) || []; } catch { return []; } };
function remember(id) {
  const s = seen().filter(x => x !== id);
  s.unshift(id);
  try { localStorage.setItem(SEEN_KEY, JSON.stringify(s.slice(0, 150))); } catch { /* private mode */ }
}
const theme = () => { try { return localStorage.getItem(THEME_KEY) || ''; } catch { return ''; } };

export function stopPuzzles() { P = null; }

const sign = n => (n > 0 ? '+' : n < 0 ? '−' : '±') + Math.abs(n);

/** `which`: a puzzle number, `'daily'`, or undefined for the next one. */
export async function puzzlesPage(app, which) {
  // `/puzzles?theme=corner` (a finished lesson's link) chooses the theme.
  const asked = new URLSearchParams(location.search).get('theme');
  if (asked !== null) {
    try { localStorage.setItem(THEME_KEY, asked); } catch { /* private mode */ }
  }
  const p = P = { which, puzzle: null, moves: [], busy: false, over: false, board: null, overview: null };
  document.title = t('web-puzzles') + ' — ' + t('web-title');
  app.replaceChildren(
    el('h1', {}, t('web-puzzles')),
    el('div', { class: 'game-page puzzle-page' },
      el('div', { class: 'board-col' },
        el('div', { class: 'board-wrap', id: 'puzzle-board' }, el('p', { class: 'muted' }, '…'))),
      el('aside', { class: 'panel' },
        el('div', { class: 'status', id: 'puzzle-status', role: 'status' }),
        el('p', { class: 'meta', id: 'puzzle-meta' }),
        el('p', { class: 'verdict', id: 'puzzle-verdict' }),
        el('ul', { class: 'coach', id: 'puzzle-coach', 'aria-label': t('web-coach') }),
        el('p', { id: 'puzzle-rating-change', class: 'rating-change' }),
        el('div', { class: 'solution-steps', id: 'solution-steps', role: 'toolbar', 'aria-label': t('web-puzzle-solution'), hidden: true }),
        el('div', { class: 'buttons' },
          button(t('web-puzzle-next'), { id: 'puzzle-next', class: 'primary', onclick: () => go('/puzzles') }, 'next'),
          el('button', { type: 'button', id: 'puzzle-analyse', hidden: true, onclick: analyse }, t('web-analysis-open'))),
        el('section', { class: 'puzzle-themes', 'aria-labelledby': 'themes-title' },
          el('h2', { id: 'themes-title' }, t('web-puzzle-themes')),
          el('div', { class: 'theme-chips', id: 'theme-chips' })),
        el('section', { class: 'puzzle-me', id: 'puzzle-me' }))));
  loadOverview(p);
  let r;
  try {
    if (which === 'daily') r = await api('GET', '/api/puzzles/daily');
    else if (which) r = await api('GET', '/api/puzzles/' + encodeURIComponent(which));
    else {
      const q = new URLSearchParams();
      if (theme()) q.set('theme', theme());
      const except = seen();
      if (except.length) q.set('except', except.join(','));
      r = await api('GET', '/api/puzzles/next?' + q);
    }
  } catch (e) {
    if (P === p) { $('#puzzle-board').replaceChildren(); $('#puzzle-status').textContent = e.message; }
    return;
  }
  if (P !== p) return;
  p.puzzle = r.puzzle;
  p.board = r.puzzle.board;
  remember(p.puzzle.id);
  if (!which) history.replaceState(null, '', '/puzzles/' + p.puzzle.id);
  document.title = t('web-puzzle-n', { n: String(p.puzzle.id) }) + ' — ' + t('web-title');
  renderMeta();
  setStatus('todo');
  draw(true);
}

async function loadOverview(p) {
  let o;
  try { o = await api('GET', '/api/puzzles'); } catch { return; }
  if (P !== p) return;
  p.overview = o;
  const chips = $('#theme-chips');
  const chosen = theme();
  const chip = (name, label, count) => el('button', { type: 'button', class: 'chip' + (chosen === name ? ' on' : ''), 'aria-pressed': String(chosen === name), 'data-theme': name,
    onclick: () => { try { localStorage.setItem(THEME_KEY, name); } catch { /* ignore */ } go('/puzzles'); } },
  label, count === null ? null : el('small', {}, String(count)));
  chips.replaceChildren(chip('', t('web-puzzle-theme-any'), o.count), ...o.themes.filter(x => x.count > 0).map(x => chip(x.theme, t('web-puzzle-theme-' + x.theme), x.count)));
  renderMe();
}

function renderMe() {
  const box = $('#puzzle-me');
  const o = P && P.overview;
  if (!box || !o) return;
  if (!o.me) {
    box.replaceChildren(el('p', { class: 'muted' }, t('web-puzzle-guest'), ' ', link('/login', t('web-sign-in'))));
    return;
  }
  const m = o.me;
  const list = el('ul', { class: 'attempts', id: 'puzzle-recent' });
  for (const a of m.recent) {
    list.append(el('li', { class: a.solved ? 'ok' : 'fail' }, link('/puzzles/' + a.puzzle,
      [el('span', { 'aria-hidden': 'true' }, a.solved ? '✓ ' : '✗ '), t('web-puzzle-n', { n: String(a.puzzle) }), ' ', el('small', {}, sign(a.diff))],
      { title: t(a.solved ? 'web-puzzle-solved-short' : 'web-puzzle-failed-short') })));
  }
  box.replaceChildren(
    el('h2', {}, t('web-puzzle-your-rating')),
    el('p', { class: 'big-rating', id: 'puzzle-my-rating' }, String(m.rating.rating) + (m.rating.provisional ? '?' : '')),
    el('p', { class: 'muted' }, t('web-puzzle-record', { solved: m.solved, n: m.attempts })),
    list);
}

function renderMeta() {
  const z = P.puzzle;
  const parts = [t('web-puzzle-n', { n: String(z.id) }), t('web-puzzle-rating', { rating: String(z.rating) })];
  if (z.year) parts.push(t('web-puzzle-from-game', { year: String(z.year) }));
  parts.push(t('web-puzzle-empties', { n: z.empties }));
  if (z.attempts) parts.push(t('web-puzzle-played', { n: z.attempts, pct: Math.round(100 * z.solutions / z.attempts) }));
  $('#puzzle-meta').textContent = parts.join(' · ');
}

function setStatus(kind, extra = {}) {
  const z = P.puzzle, box = $('#puzzle-status');
  box.className = 'status' + (kind === 'solved' ? ' win' : kind === 'wrong' ? ' loss' : '');
  const color = z.to_move;
  const text = {
    todo: () => t(z.kind === 'win' ? 'web-puzzle-find-win' : 'web-puzzle-find-best', { color, n: z.player_moves }),
    right: () => t('web-puzzle-right', { n: extra.left }),
    solved: () => t('web-puzzle-solved'),
    wrong: () => t('web-puzzle-wrong'),
  }[kind]();
  box.textContent = text;
  announce(text);
}

function draw(playable, animate) {
  const z = P.puzzle, b = P.board;
  const mine = !P.over && playable && b.to_move === z.to_move;
  $('#puzzle-board').replaceChildren(drawBoard(sized(b), {
    legal: mine ? b.legal_moves : [], playable: mine && !P.busy, onMove: play, label: t('web-board'),
    animate: animate ? new Set([b.last_move, ...(b.flipped || [])]) : undefined,
  }));
}

async function play(square) {
  const p = P;
  if (!p || p.busy || p.over) return;
  p.busy = true;
  const moves = p.moves.concat([square]);
  let r;
  try { r = await api('POST', `/api/puzzles/${p.puzzle.id}/moves`, { moves }); } catch (e) {
    p.busy = false;
    if (P === p) $('#puzzle-verdict').textContent = e.message;
    return;
  }
  if (P !== p) return;
  p.moves = moves;
  p.board = r.board;
  moveSound();
  draw(false, true);
  if (r.step === 'right') {
    setStatus('right', { left: p.puzzle.player_moves - moves.length });
    setTimeout(() => {
      if (P !== p) return;
      p.board = r.reply_board;
      p.busy = false;
      draw(true, true);
    }, 450);
    return;
  }
  p.busy = false;
  p.over = true;
  setStatus(r.step, r);
  if (r.step === 'wrong') {
    $('#puzzle-verdict').textContent = t('web-puzzle-wrong-why', { move: square, score: sign(r.played_score), best: r.solution[2 * (moves.length - 1)], bestScore: sign(r.best_score) });
    $('#puzzle-coach').replaceChildren(...coachItems((r.facts || []).slice(1)));
  } else {
    $('#puzzle-verdict').textContent = t('web-puzzle-score', { score: sign(r.score), color: P.puzzle.to_move });
  }
  if (r.rated) {
    const d = r.rating.diff;
    $('#puzzle-rating-change').textContent = t('web-puzzle-rating-change', { rating: String(r.rating.after.rating) + (r.rating.after.provisional ? '?' : ''), diff: sign(d) });
    loadOverview(p);
  }
  $('#puzzle-analyse').hidden = false;
  solutionSteps(r);
}

/** The server's puzzle boards are 8 × 8 and say only their squares. */
const sized = b => Object.assign({ width: 8, height: 8 }, b);

/** Buttons that show the board after each move of the solution. */
function solutionSteps(r) {
  const bar = $('#solution-steps');
  const start = P.puzzle.board;
  const frames = [start].concat(r.solution_boards);
  const show = i => {
    P.board = frames[i];
    draw(false, i > 0);
    bar.querySelectorAll('button').forEach(b => b.classList.toggle('current', Number(b.dataset.i) === i));
  };
  bar.replaceChildren(el('span', { class: 'ply-label' }, t('web-puzzle-solution')),
    el('button', { type: 'button', class: 'mv', 'data-i': 0, title: t('web-start-position'), 'aria-label': t('web-start-position'), onclick: () => show(0) }, icon('first')),
    ...r.solution.map((m, i) => el('button', { type: 'button', class: 'mv' + (i % 2 ? ' reply' : ''), 'data-i': i + 1, onclick: () => show(i + 1) }, m === 'pass' ? t('web-pass') : m)));
  bar.hidden = false;
}

function analyse() {
  const z = P && P.puzzle;
  if (!z) return;
  // The analysis board takes the board as 64 squares from a1 and the side to move.
  const cells = z.board.cells.replace(/\./g, '-');
  go('/analysis?' + new URLSearchParams({ variant: 'othello', board: cells + ' ' + (z.to_move === 'black' ? 'X' : 'O') }));
}

/** The daily puzzle's box on the home page. */
export async function dailyBox(box) {
  let r;
  try { r = await api('GET', '/api/puzzles/daily'); } catch { box.remove(); return; }
  if (!box.isConnected) return;
  const z = r.puzzle;
  box.replaceChildren(
    el('h2', {}, t('web-puzzle-daily')),
    link('/puzzles/daily', [
      el('div', { class: 'daily-board', 'aria-hidden': 'true' }, drawBoard(sized(z.board), { label: t('web-board') })),
      el('span', {}, t(z.kind === 'win' ? 'web-puzzle-find-win' : 'web-puzzle-find-best', { color: z.to_move, n: z.player_moves }))],
    { class: 'daily-link', id: 'daily-puzzle' }),
    el('p', {}, link('/puzzles', t('web-puzzle-more'), { id: 'puzzles-link' })));
}
