// The board, drawn in SVG: a wooden frame with the coordinates, green cloth with grid lines and
// the four star points, shaded discs. The grid is a real grid for screen readers (rows of cells,
// each named: "d3, black"), and the squares one may play are buttons reachable by Tab.
import { svg } from './dom.js';
import { t } from './i18n.js';
import { prefs } from './prefs.js';

/** The light discs' shading: white, or the gold of the box edition. */
const LIGHT = {
  classic: ['#ffffff', '#ededed', '#bdbdbd'],
  gold: ['#fff3c4', '#e2b13c', '#9c7016'],
};

const S = 40;  // a square, in SVG units
const F = 22;  // the frame
let boards = 0;

export const squareName = (c, r) => String.fromCharCode(97 + c) + (r + 1);

/**
 * Draws a board. `b`: {width, height, cells, last_move, flipped}; `o` (all optional):
 * legal (squares to mark), playable (whether they can be played), onMove(square),
 * hints ({square: score}; the pills shaded by the loss against the best), hintKinds ({square:
 * 'book'|'exact'|'wld'|'estimate'}, the pill's outline), titles ({square: text shown on hover}), cursor (a square framed), animate (squares whose disc just
 * appeared or turned: they turn once), label (for screen readers), onCursor(square) (keyboard
 * play: the board is one stop of Tab, at `cursor`, and the arrow keys move between squares; the
 * callback hears where the keyboard is, so that a redrawn board can keep it there), hideLegal
 * (the legal squares take clicks but are not marked), anyEmpty (every empty square takes a
 * click), marks (squares ringed: a lesson's answers), ghost ({square, color, kind}: a
 * see-through disc where a move waits — `premove`, played when the turn comes, `queued`, sent
 * when the server is back, or `pending`, waiting for its confirmation), premove (the clickable squares choose a premove: every empty
 * one, classed `premovable`, not `playable`), better (a square ringed where a better move than
 * the last one was: the replay of a mistake).
 */
export function drawBoard(b, o = {}) {
  const id = ++boards;
  const W = b.width * S + 2 * F, H = b.height * S + 2 * F;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'board', role: 'grid', 'aria-label': o.label || t('web-board') });
  if (b.width > 10) root.classList.add('big-board');
  root.append(defs(id));
  root.append(svg('rect', { x: 0, y: 0, width: W, height: H, rx: 10, class: 'frame', fill: `url(#wood${id})` }));
  root.append(svg('rect', { x: F, y: F, width: b.width * S, height: b.height * S, class: 'cloth', fill: `url(#cloth${id})` }));
  for (let c = 0; c < b.width; c++) {
    const tx = svg('text', { x: F + c * S + S / 2, y: H - F / 2, class: 'coord', 'aria-hidden': 'true' });
    tx.textContent = String.fromCharCode(97 + c);
    root.append(tx);
  }
  for (let r = 0; r < b.height; r++) {
    const tx = svg('text', { x: F / 2, y: F + r * S + S / 2, class: 'coord', 'aria-hidden': 'true' });
    tx.textContent = r + 1;
    root.append(tx);
  }
  const lines = svg('g', { class: 'grid-lines', 'aria-hidden': 'true' });
  for (let c = 0; c <= b.width; c++) lines.append(svg('line', { x1: F + c * S, y1: F, x2: F + c * S, y2: F + b.height * S }));
  for (let r = 0; r <= b.height; r++) lines.append(svg('line', { x1: F, y1: F + r * S, x2: F + b.width * S, y2: F + r * S }));
  root.append(lines);
  if (b.width >= 8 && b.height >= 8 && b.width % 2 === 0) {
    const q = b.width / 4, p = b.height / 4;
    for (const [x, y] of [[q, p], [b.width - q, p], [q, b.height - p], [b.width - q, b.height - p]]) {
      root.append(svg('circle', { cx: F + Math.round(x) * S, cy: F + Math.round(y) * S, r: 3.2, class: 'star', 'aria-hidden': 'true' }));
    }
  }
  const legal = new Set(o.legal || []), hints = o.hints || {}, animate = o.animate || new Set();
  // The pills' colours go by how much each move loses against the best (as Egaroucid shows
  // them): the best stands out, the rest shade from near to poor.
  const values = Object.values(hints).filter(v => typeof v === 'number');
  const best = values.length ? Math.max(...values) : null;
  const flipped = new Set(b.flipped || []);
  for (let r = 0; r < b.height; r++) {
    const row = svg('g', { role: 'row' });
    for (let c = 0; c < b.width; c++) row.append(square(b, c, r, { id, legal, hints, best, animate, flipped, o }));
    root.append(row);
  }
  if (o.onCursor) root.addEventListener('keydown', ev => arrowKey(ev, root, b, o));
  return root;
}

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** An arrow key on the board: the keyboard goes to the next square that way (holes skipped). */
function arrowKey(ev, root, b, o) {
  const step = STEPS[ev.key];
  const from = ev.target.closest && ev.target.closest('[data-sq]');
  if (!step || !from || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  ev.preventDefault();
  ev.stopPropagation();
  const name = from.dataset.sq;
  let c = name.charCodeAt(0) - 97, r = Number(name.slice(1)) - 1;
  for (;;) {
    c += step[0]; r += step[1];
    if (c < 0 || r < 0 || c >= b.width || r >= b.height) return;
    const next = root.querySelector(`[data-sq="${squareName(c, r)}"][tabindex]`);
    if (next) {
      from.setAttribute('tabindex', '-1');
      next.setAttribute('tabindex', '0');
      next.focus({ preventScroll: true });
      o.onCursor(next.dataset.sq);
      return;
    }
  }
}

function square(b, c, r, { id, legal, hints, best, animate, flipped, o }) {
  const ch = b.cells[r * b.width + c], name = squareName(c, r);
  const x = F + c * S, y = F + r * S, cx = x + S / 2, cy = y + S / 2;
  const g = svg('g', { class: 'sq', 'data-sq': name, role: 'gridcell' });
  if (ch === '#') {
    g.append(svg('rect', { x, y, width: S, height: S, class: 'hole' }));
    g.setAttribute('aria-label', `${name}, ${t('web-square-missing')}`);
    return g;
  }
  g.append(svg('rect', { x, y, width: S, height: S, class: 'cell' }));
  let label = name;
  if (ch === 'X' || ch === 'O') {
    const black = ch === 'X';
    const disc = svg('g', { class: 'disc' + (animate.has(name) ? (flipped.has(name) ? ' flip' : ' drop') : '') });
    disc.append(svg('circle', { cx: cx + 1.2, cy: cy + 2, r: S * 0.41, class: 'disc-shadow' }));
    disc.append(svg('circle', { cx, cy, r: S * 0.41, class: black ? 'disc-black' : 'disc-white', fill: `url(#${black ? 'black' : 'white'}${id})` }));
    g.append(disc);
    label += ', ' + t(black ? 'web-disc-black' : 'web-disc-white');
  }
  const hint = hints[name];
  if (hint !== undefined) {
    const kind = o.hintKinds && o.hintKinds[name];
    const loss = best - hint;
    const shade = loss <= 0 ? 'best' : loss <= 2 ? 'near' : loss <= 6 ? 'fair' : 'poor';
    g.append(svg('rect', { x: cx - 14, y: cy - 9, width: 28, height: 18, rx: 9, class: `hint-pill ${shade}` + (kind ? ' ' + kind : '') }));
    const tx = svg('text', { x: cx, y: cy + 0.5, class: 'hint-text' });
    tx.textContent = (hint > 0 ? '+' : hint < 0 ? '−' : '') + Math.abs(hint);
    g.append(tx);
    label += ', ' + t('web-hint-value', { score: hint }) + (shade === 'best' ? ', ' + t('web-hint-best') : '');
  } else if (legal.has(name) && !o.hideLegal) {
    g.append(svg('circle', { cx, cy, r: S * 0.13, class: 'legal' }));
    label += ', ' + t('web-legal-square');
  }
  if (o.ghost && o.ghost.square === name && ch === '.') {
    g.append(svg('circle', { cx, cy, r: S * 0.41, class: `ghost ${o.ghost.kind} ${o.ghost.color === 'black' ? 'disc-black' : 'disc-white'}`, fill: `url(#${o.ghost.color}${id})` }));
    label += ', ' + t({ premove: 'web-premove-square', queued: 'web-queued-square' }[o.ghost.kind] || 'web-pending-square');
  }
  if (o.better === name && ch === '.') {
    g.append(svg('circle', { cx, cy, r: S * 0.36, class: 'better' }));
    label += ', ' + t('web-better-square');
  }
  if (o.marks && o.marks.includes(name)) {
    g.append(svg('circle', { cx, cy, r: S * 0.3, class: 'answer' }));
    label += ', ' + t('web-answer-square');
  }
  if (b.last_move === name) {
    g.append(svg('circle', { cx, cy, r: 3.6, class: 'last' }));
    label += ', ' + t('web-last-move');
  }
  if (o.titles && o.titles[name]) {
    const title = svg('title');
    title.textContent = o.titles[name];
    g.append(title);
  }
  if (o.cursor === name && !o.onCursor) g.append(svg('rect', { x: x + 2.5, y: y + 2.5, width: S - 5, height: S - 5, rx: 4, class: 'cursor' }));
  g.setAttribute('aria-label', label);
  if (o.onCursor) {
    g.setAttribute('tabindex', name === o.cursor ? '0' : '-1');
    g.addEventListener('focus', () => o.onCursor(name));
  }
  // `anyEmpty`: every empty square takes a click (lessons say why a square is not a move).
  if ((legal.has(name) || (o.anyEmpty && ch === '.')) && o.playable && o.onMove) {
    if (!o.onCursor) g.setAttribute('tabindex', '0');
    // A premove's square takes a click as any other, but is not a move now.
    g.classList.add(o.premove ? 'premovable' : 'playable');
    g.addEventListener('click', () => o.onMove(name));
    g.addEventListener('keydown', ev => {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); ev.stopPropagation(); o.onMove(name); }
    });
  }
  return g;
}

function defs(id) {
  const d = svg('defs');
  const wood = svg('linearGradient', { id: `wood${id}`, x1: 0, y1: 0, x2: 1, y2: 1 });
  wood.append(svg('stop', { offset: '0', class: 'wood-a' }), svg('stop', { offset: '1', class: 'wood-b' }));
  const cloth = svg('radialGradient', { id: `cloth${id}`, cx: '50%', cy: '40%', r: '75%' });
  cloth.append(svg('stop', { offset: '0', class: 'cloth-a' }), svg('stop', { offset: '1', class: 'cloth-b' }));
  const black = svg('radialGradient', { id: `black${id}`, cx: '35%', cy: '30%', r: '70%' });
  black.append(svg('stop', { offset: '0', 'stop-color': '#6a6a6a' }), svg('stop', { offset: '0.45', 'stop-color': '#1c1c1c' }), svg('stop', { offset: '1', 'stop-color': '#000' }));
  const white = svg('radialGradient', { id: `white${id}`, cx: '35%', cy: '30%', r: '75%' });
  const [a, b, c] = LIGHT[prefs.discs];
  white.append(svg('stop', { offset: '0', 'stop-color': a }), svg('stop', { offset: '0.6', 'stop-color': b }), svg('stop', { offset: '1', 'stop-color': c }));
  d.append(wood, cloth, black, white);
  return d;
}
