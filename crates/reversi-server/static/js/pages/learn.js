// Lessons (/learn, /learn/ID): read one idea, then do it on the board until it is right. The
// server judges every move (the page never holds an answer) and plays the replies of an
// exercise of several moves; a finished lesson is remembered in this browser, and for an
// account on the site too (a guest's lessons join the account when it signs in). The texts
// are the `learn` part of the messages (learn.LANG.ftl), loaded with this module.
import { api } from '../api.js';
import { drawBoard } from '../board.js';
import { $, el, button, link, announce } from '../dom.js';
import { t, has, lang } from '../i18n.js';
import { me } from '../account.js';
import { moveSound, endSound } from '../sound.js';

const DONE_KEY = 'rv-learn-done';
const SECTIONS = ['rules', 'strategy', 'endgame'];
/** The goals whose exercise is finding where a disc may go at all: no dots on the board. */
const NO_DOTS = new Set(['legal']);

let L = null;

export function stopLearn() { L = null; }

/** The lessons finished in this browser. */
function localDone() {
  try { return new Set(JSON.parse(localStorage.getItem(DONE_KEY)) || []); } catch { return new Set(); }
}

function markLocal(id) {
  const s = localDone();
  s.add(id);
  try { localStorage.setItem(DONE_KEY, JSON.stringify([...s])); } catch { /* private mode */ }
}

/** The lessons finished here and on the account; the ones only this browser knew are handed
 * to the account. */
async function progress(list) {
  const local = localDone();
  const done = new Set(list.lessons.filter(l => l.finished).map(l => l.id));
  const missing = [...local].filter(id => !done.has(id) && list.lessons.some(l => l.id === id));
  if (list.signed_in && missing.length) {
    try { await api('POST', '/api/learn/finished', { lessons: missing }); } catch { /* kept locally */ }
  }
  for (const id of local) done.add(id);
  return done;
}

const title = id => t(`learn-${id}-title`);
const paragraphs = id => [1, 2, 3, 4, 5].map(n => `learn-${id}-p${n}`).filter(has).map(k => el('p', {}, t(k)));

/** `/learn`: the path of lessons, by section, with what is done. */
export async function learnPage(app) {
  const l = L = { kind: 'list' };
  document.title = t('learn-page-title') + ' — ' + t('web-title');
  app.replaceChildren(el('h1', {}, t('learn-page-title')), el('p', { class: 'muted' }, '…'));
  let list;
  try { list = await api('GET', '/api/learn'); } catch (e) {
    if (L === l) app.replaceChildren(el('h1', {}, t('learn-page-title')), el('p', { class: 'error' }, e.message));
    return;
  }
  const done = await progress(list);
  if (L !== l) return;
  const count = list.lessons.filter(x => done.has(x.id)).length;
  const first = list.lessons.find(x => !done.has(x.id));
  const sections = SECTIONS.map(s => {
    const items = list.lessons.filter(x => x.section === s);
    return el('section', { class: 'learn-section', 'aria-labelledby': 'learn-' + s },
      el('h2', { id: 'learn-' + s }, t('learn-section-' + s)),
      el('ol', { class: 'lesson-list' }, ...items.map(x => el('li', { class: done.has(x.id) ? 'done' : '' },
        link('/learn/' + x.id, [
          el('span', { class: 'lesson-mark', 'aria-hidden': 'true' }, done.has(x.id) ? '✓' : String(list.lessons.indexOf(x) + 1)),
          el('span', { class: 'lesson-name' }, el('strong', {}, title(x.id)), el('small', {}, t(`learn-${x.id}-intro`))),
          done.has(x.id) ? el('span', { class: 'visually-hidden' }, t('learn-finished')) : null,
        ], { class: 'lesson-link', 'data-lesson': x.id })))));
  });
  app.replaceChildren(
    el('h1', {}, t('learn-page-title')),
    el('p', { class: 'learn-lead' }, t('learn-page-intro')),
    el('div', { class: 'learn-progress' },
      el('progress', { max: list.lessons.length, value: count, 'aria-label': t('learn-progress', { done: count, n: list.lessons.length }) }),
      el('span', { id: 'learn-count' }, t('learn-progress', { done: count, n: list.lessons.length })),
      first ? link('/learn/' + first.id, t(count ? 'learn-continue' : 'learn-start'), { class: 'button primary', id: 'learn-next' }) : null),
    list.signed_in ? null : el('p', { class: 'muted' }, t('learn-guest'), ' ', link('/login', t('web-sign-in'))),
    el('div', { class: 'learn-sections' }, ...sections),
    el('p', { class: 'learn-more' }, link('/rules', t('web-nav-rules')), ' · ', link('/about', t('learn-about-link')), ' · ', el('span', { class: 'muted' }, t('learn-source'))));
}

/** `/learn/ID`: the lesson's text, then its exercises one after another. */
export async function lessonPage(app, id) {
  const l = L = { kind: 'lesson', id, view: null, n: 0, moves: [], board: null, busy: false, solved: false, misses: 0 };
  document.title = (has(`learn-${id}-title`) ? title(id) : t('learn-page-title')) + ' — ' + t('web-title');
  app.replaceChildren(el('p', { class: 'muted' }, '…'));
  let view;
  try { view = await api('GET', '/api/learn/' + encodeURIComponent(id)); } catch (e) {
    if (L === l) app.replaceChildren(el('p', {}, link('/learn', '← ' + t('learn-all'))), el('p', { class: 'error' }, e.message));
    return;
  }
  if (L !== l) return;
  l.view = view;
  app.replaceChildren(
    el('p', { class: 'crumbs' }, link('/learn', '← ' + t('learn-all'))),
    el('article', { class: 'lesson' },
      el('h1', { id: 'lesson-title' }, title(id)),
      el('div', { class: 'lesson-text', id: 'lesson-text' }, ...paragraphs(id))),
    el('section', { class: 'exercise', id: 'exercise', 'aria-labelledby': 'exercise-title' }));
  showExercise(0);
  if (id === 'openings') openingsTable(l);
}

/** The named openings (the site names them in games), each opening on the analysis board. */
async function openingsTable(l) {
  let r;
  try { r = await api('GET', '/api/openings'); } catch { return; }
  if (L !== l) return;
  const ru = lang() === 'ru';
  const rows = r.openings.map(o => el('tr', {},
    el('td', {}, ru ? o.russian : o.english),
    el('td', {}, link('/analysis?moves=' + o.moves, o.moves.match(/../g).join(' '), { class: 'opening-line' }))));
  $('#lesson-text').append(el('details', { class: 'openings-table', id: 'openings-table' },
    el('summary', {}, t('learn-openings-table', { n: r.openings.length })),
    el('div', { class: 'table-wrap' }, el('table', { class: 'champions' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('learn-opening-name')), el('th', { scope: 'col' }, t('learn-opening-moves')))),
      el('tbody', {}, rows)))));
}

function showExercise(n) {
  const l = L;
  const ex = l.view.exercises[n];
  Object.assign(l, { n, moves: [], board: ex.board, busy: false, solved: false, misses: 0 });
  const total = l.view.exercises.length;
  $('#exercise').replaceChildren(
    el('h2', { id: 'exercise-title' }, t('learn-exercise', { n: n + 1, total })),
    el('div', { class: 'game-page lesson-board' },
      el('div', { class: 'board-col' }, el('div', { class: 'board-wrap', id: 'lesson-board' })),
      el('aside', { class: 'panel' },
        el('p', { class: 'you-play' }, t('learn-you-play', { color: ex.board.to_move })),
        el('p', { class: 'goal', id: 'lesson-goal' }, goalText(ex)),
        el('p', { class: 'status', id: 'lesson-status', role: 'status' }),
        el('div', { class: 'buttons', id: 'lesson-buttons' }))));
  draw(true);
  buttons();
}

function goalText(ex) {
  if (ex.opening) return t('learn-goal-opening', { opening: lang() === 'ru' ? ex.opening[1] : ex.opening[0] });
  if (ex.goal === 'exact' && ex.moves > 1) return t('learn-goal-exact-line', { n: ex.moves });
  return t('learn-goal-' + ex.goal, { square: ex.square || '', n: ex.moves });
}

function draw(playable, animate) {
  const l = L, ex = l.view.exercises[l.n], b = l.board;
  const mine = playable && !l.solved && b.to_move === ex.board.to_move;
  $('#lesson-board').replaceChildren(drawBoard(Object.assign({ width: 8, height: 8 }, b), {
    legal: mine ? b.legal_moves : [], playable: mine && !l.busy, onMove: play, label: t('web-board'),
    hideLegal: NO_DOTS.has(ex.goal), anyEmpty: mine && !l.busy,
    animate: animate ? new Set([b.last_move, ...(b.flipped || [])]) : undefined,
  }));
}

const signed = n => (n > 0 ? '+' : n < 0 ? '−' : '±') + Math.abs(n);

/** What the move did, measured by the goal. */
function measure(ex, r, square) {
  const args = { value: r.value, target: r.target, move: square, square: ex.square || '', flips: (r.board && r.board.flipped || []).length, score: signed(r.value), best: signed(r.target) };
  const id = (r.step === 'wrong' ? 'learn-wrong-' : 'learn-right-') + (ex.opening ? 'opening' : ex.goal);
  return has(id) ? t(id, args) : '';
}

function setStatus(kind, text) {
  const box = $('#lesson-status');
  box.className = 'status' + (kind === 'ok' ? ' win' : kind === 'bad' ? ' loss' : '');
  box.textContent = text;
  announce(text);
}

async function play(square) {
  const l = L;
  if (!l || l.busy || l.solved) return;
  const ex = l.view.exercises[l.n];
  l.busy = true;
  const moves = l.moves.concat([square]);
  let r;
  try { r = await api('POST', `/api/learn/${l.id}/${l.n}`, { moves }); } catch (e) {
    l.busy = false;
    if (L !== l) return;
    // A square that turns nothing: say why, and let the player try again.
    setStatus('bad', e.code === 'illegal_move' ? t('learn-illegal', { move: square }) : e.message);
    l.misses++;
    buttons();
    draw(true);
    return;
  }
  if (L !== l) return;
  const before = l.board;
  l.board = r.board;
  moveSound();
  draw(false, true);
  if (r.step === 'wrong') {
    l.misses++;
    setStatus('bad', [t('learn-wrong'), measure(ex, r, square)].filter(Boolean).join(' '));
    // The board goes back after a moment, for the next try.
    setTimeout(() => { if (L !== l) return; l.board = before; l.busy = false; draw(true); buttons(); }, 1400);
    return;
  }
  l.moves = moves;
  if (r.step === 'right') {
    setStatus('ok', [t('learn-right'), measure(ex, r, square), t('learn-go-on', { n: ex.moves - moves.length })].filter(Boolean).join(' '));
    setTimeout(() => {
      if (L !== l) return;
      if (r.reply_board) { l.board = r.reply_board; moveSound(); }
      l.busy = false;
      draw(true, true);
    }, 600);
    return;
  }
  l.busy = false;
  l.solved = true;
  endSound();
  setStatus('ok', [t('learn-right'), measure(ex, r, square)].filter(Boolean).join(' '));
  buttons();
}

/** Shows the right moves of the step the player is stuck on. */
async function reveal() {
  const l = L;
  if (!l || l.busy || l.solved) return;
  let r;
  try { r = await api('POST', `/api/learn/${l.id}/${l.n}`, { moves: l.moves, reveal: true }); } catch (e) { setStatus('bad', e.message); return; }
  if (L !== l) return;
  setStatus('', t('learn-answers', { moves: r.answers.join(', '), n: r.answers.length }));
  const b = l.board;
  $('#lesson-board').replaceChildren(drawBoard(Object.assign({ width: 8, height: 8 }, b), {
    legal: b.legal_moves, playable: true, onMove: play, label: t('web-board'), hideLegal: true, anyEmpty: true,
    marks: r.answers,
  }));
}

function buttons() {
  const l = L, box = $('#lesson-buttons');
  if (!box) return;
  const last = l.n + 1 >= l.view.exercises.length;
  const items = [];
  if (l.solved && !last) items.push(button(t('learn-next-exercise'), { class: 'primary', id: 'exercise-next', onclick: () => showExercise(l.n + 1) }, 'next'));
  if (l.solved && last) finish();
  if (!l.solved) {
    items.push(button(t('learn-restart'), { id: 'exercise-restart', onclick: () => showExercise(l.n) }, 'undo'));
    if (l.misses > 0) items.push(button(t('learn-show'), { id: 'exercise-show', onclick: reveal }, 'bulb'));
  }
  box.replaceChildren(...items);
}

/** The lesson is done: remember it, say what to keep, and where to go next. */
function finish() {
  const l = L, v = l.view;
  markLocal(l.id);
  if (me()) api('POST', '/api/learn/finished', { lessons: [l.id] }).catch(() => {});
  const theme = v.lesson.theme;
  const box = el('div', { class: 'lesson-done', id: 'lesson-done', role: 'status' },
    el('h2', {}, t('learn-lesson-done')),
    el('p', {}, t(`learn-${l.id}-done`)),
    el('div', { class: 'buttons' },
      v.next ? link('/learn/' + v.next, t('learn-next-lesson', { title: title(v.next) }), { class: 'button primary', id: 'lesson-next' }) : null,
      theme ? link('/puzzles?theme=' + encodeURIComponent(theme), t('learn-puzzles', { theme: t('web-puzzle-theme-' + theme) }), { class: 'button', id: 'lesson-puzzles' }) : null,
      link('/learn', t('learn-all'), { class: 'button' })));
  const old = $('#lesson-done');
  if (old) old.replaceWith(box); else $('#exercise').append(box);
  box.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
}

/** Keys: N for the next exercise once one is solved. */
export function learnKeys(ev) {
  if (ev.key === 'n' && L && L.solved) { const b = $('#exercise-next') || $('#lesson-next'); if (b) { ev.preventDefault(); b.click(); } }
}
