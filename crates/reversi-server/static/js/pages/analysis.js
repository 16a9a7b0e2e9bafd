// The analysis board (/analysis?variant=V&moves=M, or &board=B): every legal move carries the
// engine's value, refining as it searches deeper (book, exact, win/loss/draw or an estimate with
// its depth); play moves to explore a tree of variations; paste a game; set up a position.
// The engine runs on this device by default (engine.js, the same engine built for the browser);
// the server's (/api/analysis/ws) is a choice away, and both send the same events.
import { drawBoard } from '../board.js';
import { api, errorText } from '../api.js';
import { $, el, button, go, link, hasKeyboard } from '../dom.js';
import { t, colorName, variantName } from '../i18n.js';
import { openingName } from '../opening.js';
import { coachText } from '../coach.js';
import { explorerBox, showExplorer, stopExplorer } from './explorer.js';
import { META } from '../meta.js';
import { localEngine, engineSupported } from '../engine.js';

let A = null;

const VARIANTS = META.analysis_variants;

/** The analysis board's address for a game's moves, standing at `ply`. */
export function analysisUrl(variant, moves, ply) {
  const q = new URLSearchParams({ variant });
  if (moves.length) q.set('moves', moves.join(''));
  q.set('ply', String(ply));
  return '/analysis?' + q;
}

/** Where the engine runs: `device` (the default where the browser can) or `server`. */
function savedWhere() {
  let w = null;
  try { w = localStorage.getItem('analysis-engine'); } catch { /* storage off */ }
  if (w === 'server' || !engineSupported()) return 'server';
  return 'device';
}

export function stopAnalysis() {
  if (!A) return;
  A.closing = true;
  if (A.src) A.src.close();
  if (A.timer) clearTimeout(A.timer);
  stopExplorer();
  A = null;
}

/** A node of the variation tree: the move that led to it, its children (the first is the main
 * line), and the best value found there (for Black), for the graph. */
const node = (move, parent) => ({ move, parent, children: [], black: null });

export function analysisPage(app) {
  const q = new URLSearchParams(location.search);
  const a = A = {
    variant: q.get('variant') || 'othello', start: q.get('board') ? { board: q.get('board') } : {},
    tab: q.get('tab') === 'db' ? 'db' : 'engine',
    root: node(null, null), seq: 0, pos: null, values: [], depth: 0, done: false, error: '',
    editing: null, src: null, timer: null, retry: 0, closing: false, want: null, where: savedWhere(),
  };
  a.cur = a.root;
  for (const m of (q.get('moves') || '').match(/pass|[a-p](?:1[0-6]|[1-9])/gi) || []) a.cur = child(a.cur, m.toLowerCase());
  const ply = q.has('ply') ? Number(q.get('ply')) : NaN;
  if (Number.isInteger(ply) && ply >= 0) while (pathOf(a.cur).length > ply) a.cur = a.cur.parent;
  document.title = t('web-analysis-board') + ' — ' + t('web-title');
  const variant = el('select', { id: 'analysis-variant', 'aria-label': t('web-variant'), onchange: ev => { a.variant = ev.target.value; a.start = {}; a.root = node(null, null); a.cur = a.root; request(); } },
    ...VARIANTS.concat(VARIANTS.includes(a.variant) ? [] : [a.variant]).map(v => el('option', { value: v, selected: v === a.variant }, variantName(v))));
  const where = el('select', { id: 'analysis-where', 'aria-label': t('web-analysis-where'), onchange: ev => setWhere(ev.target.value) },
    ...['device', 'server'].map(w => el('option', { value: w, selected: w === a.where, disabled: w === 'device' && !engineSupported() }, t('web-analysis-on-' + w))));
  app.replaceChildren(
    el('h1', {}, t('web-analysis-board')),
    el('div', { class: 'game-page analysis-page' },
      el('div', { class: 'board-col' },
        el('div', { class: 'board-wrap', id: 'analysis-board' }),
        el('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': t('web-analysis-board') },
          button(t('web-step-first'), { id: 'an-first', onclick: () => jump(a.root) }, 'first'),
          button(t('web-step-prev'), { id: 'an-prev', onclick: () => a.cur.parent && jump(a.cur.parent) }, 'prev'),
          button(t('web-step-next'), { id: 'an-next', onclick: () => a.cur.children[0] && jump(a.cur.children[0]) }, 'next'),
          button(t('web-analysis-delete'), { id: 'an-delete', onclick: deleteVariation })),
        el('div', { id: 'analysis-graph', class: 'analysis-graph' })),
      el('aside', { class: 'panel' },
        el('div', { class: 'analysis-selects' }, variant, el('label', { class: 'analysis-where' }, t('web-analysis-where'), ' ', where)),
        el('div', { class: 'status', id: 'analysis-status' }),
        el('div', { class: 'opening', id: 'analysis-opening' }),
        el('p', { class: 'error', id: 'analysis-error', role: 'alert' }),
        el('div', { class: 'tabs', role: 'tablist' },
          el('button', { type: 'button', role: 'tab', id: 'tab-engine', 'aria-selected': String(a.tab === 'engine'), onclick: () => setTab('engine') }, t('web-analysis-tab-engine')),
          el('button', { type: 'button', role: 'tab', id: 'tab-db', 'aria-selected': String(a.tab === 'db'), onclick: () => setTab('db') }, t('web-analysis-tab-db'))),
        el('table', { class: 'analysis-moves', id: 'analysis-moves', hidden: a.tab !== 'engine' }),
        el('div', { id: 'explorer-box', hidden: a.tab !== 'db' }, el('p', { class: 'muted', id: 'explorer-note' }), explorerBox(sq => play(sq))),
        el('div', { class: 'moves', id: 'analysis-line' }),
        el('details', { class: 'analysis-tools' },
          el('summary', {}, t('web-analysis-paste')),
          el('textarea', { id: 'analysis-text', rows: 3, placeholder: t('web-analysis-paste-hint') }),
          el('div', { class: 'buttons' },
            button(t('web-analysis-load'), { id: 'analysis-load', onclick: loadText }),
            button(t('web-analysis-import'), { id: 'analysis-import', onclick: importText })),
          el('div', { id: 'analysis-imported' })),
        el('div', { class: 'buttons' },
          button(t('web-analysis-edit'), { id: 'analysis-edit', onclick: startEditing })),
        el('div', { id: 'analysis-editor' }),
        hasKeyboard() ? el('p', { class: 'meta' }, t('web-analysis-keys')) : null)));
  connect(a);
}

function setTab(tab) {
  const a = A;
  if (!a) return;
  a.tab = tab;
  $('#tab-engine').setAttribute('aria-selected', String(tab === 'engine'));
  $('#tab-db').setAttribute('aria-selected', String(tab === 'db'));
  $('#analysis-moves').hidden = tab !== 'engine';
  $('#explorer-box').hidden = tab !== 'db';
  request();
  renderExplorer();
}

/** The database tab: the explorer holds standard Othello games from the start. */
function renderExplorer() {
  const a = A;
  if (!a || a.tab !== 'db') return;
  const standard = a.variant === 'othello' && !a.start.board;
  $('#explorer-note').textContent = standard ? '' : t('web-explorer-standard-only');
  $('#explorer').hidden = !standard;
  if (standard) showExplorer(pathOf(a.cur));
}

function child(n, move) {
  let c = n.children.find(x => x.move === move);
  if (!c) { c = node(move, n); n.children.push(c); }
  return c;
}

function pathOf(n) {
  const moves = [];
  for (let x = n; x && x.move; x = x.parent) moves.unshift(x.move);
  return moves;
}

function jump(n) {
  A.cur = n;
  request();
}

function deleteVariation() {
  const n = A.cur;
  if (!n.parent) return;
  n.parent.children = n.parent.children.filter(c => c !== n);
  jump(n.parent);
}

export function analysisKeys(ev) {
  if (!A || A.editing || ['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement?.tagName)) return;
  const n = A.cur;
  const sib = d => { const s = n.parent ? n.parent.children : []; const i = s.indexOf(n); return s[(i + d + s.length) % s.length]; };
  const to = { ArrowLeft: n.parent, ArrowRight: n.children[0], Home: A.root, ArrowUp: sib(-1), ArrowDown: sib(1), Delete: undefined }[ev.key];
  if (ev.key === 'Delete') { ev.preventDefault(); deleteVariation(); return; }
  if (to) { ev.preventDefault(); jump(to); }
}

// ---------- the engine: this device's or the server's ----------

function setWhere(where) {
  const a = A;
  if (!a || where === a.where) return;
  a.where = where;
  try { localStorage.setItem('analysis-engine', where); } catch { /* storage off */ }
  if (a.src) a.src.close();
  a.src = null;
  clearTimeout(a.timer);
  a.values = []; a.done = false;
  connect(a);
}

function connect(a) {
  if (A !== a || a.closing) return;
  if (a.where === 'device') {
    a.src = localEngine(msg => { if (A === a && a.where === 'device') heard(a, msg); });
    request();
    return;
  }
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${proto}//${location.host}/api/analysis/ws`);
  const src = a.src = {
    open: false,
    send: msg => { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg)); },
    close: () => ws.close(),
  };
  ws.onopen = () => { src.open = true; a.retry = 0; request(); };
  ws.onmessage = ev => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (A === a && a.src === src) heard(a, msg);
  };
  ws.onclose = ev => {
    if (a.closing || A !== a || a.src !== src) return;
    a.retry = ev.code === 1012 ? 0 : Math.min(a.retry + 1, 6);
    a.timer = setTimeout(() => connect(a), ev.code === 1012 ? 50 + Math.random() * 450 : 250 * 2 ** a.retry);
  };
}

/** An event from either engine. */
function heard(a, msg) {
  if (msg.type === 'position' && msg.id === a.seq && a.start.text) {
    // A pasted game: its start and its moves become the board's start and main line.
    a.start = msg.standard_start ? {} : { board: msg.start };
    a.root = node(null, null);
    a.cur = a.root;
    for (const m of msg.moves) a.cur = child(a.cur, m);
    request();
  } else if (msg.type === 'position' && msg.id === a.seq) {
    a.pos = msg; a.values = []; a.error = ''; a.done = false;
    render();
  } else if (msg.type === 'values' && msg.id === a.seq) {
    a.values = msg.moves; a.depth = msg.depth; a.done = msg.done; a.opening = msg.opening;
    if (msg.moves.length && a.pos && a.pos.to_move) a.cur.black = a.pos.to_move === 'black' ? msg.moves[0].score : -msg.moves[0].score;
    render();
  } else if (msg.type === 'error' && a.where === 'device' && msg.code === 'engine_unavailable') {
    // This browser cannot run the engine: the server's it is.
    const sel = $('#analysis-where');
    if (sel) { sel.value = 'server'; sel.querySelector('option[value=device]').disabled = true; }
    a.where = 'server';
    a.src.close();
    a.src = null;
    connect(a);
  } else if (msg.type === 'error') {
    a.error = String(msg.code || '').startsWith('engine_') ? errorText(msg.code) : (msg.error || msg.code);
    // A move the engine refused leaves the tree: back to where it was legal.
    if (a.cur.parent && a.want === a.cur) { const bad = a.cur; a.cur = bad.parent; a.cur.children = a.cur.children.filter(c => c !== bad); }
    renderError();
  }
}

/** Asks for the current node's position (the engine moves on to it at once). */
function request() {
  const a = A;
  if (!a) return;
  a.want = a.cur;
  const params = new URLSearchParams({ variant: a.variant });
  const moves = pathOf(a.cur).join('');
  // The address keeps the line on to its end and where one stands in it (a reload or a
  // shared link comes back to the same place).
  let end = a.cur;
  while (end.children[0]) end = end.children[0];
  const line = pathOf(end);
  if (line.length) params.set('moves', line.join(''));
  if (a.start.board) params.set('board', a.start.board);
  if (end !== a.cur) params.set('ply', String(pathOf(a.cur).length));
  if (a.tab === 'db') params.set('tab', 'db');
  history.replaceState(null, '', '/analysis?' + params);
  if (!a.src || (a.where === 'server' && !a.src.open)) return;
  a.seq++;
  a.src.send(Object.assign({ type: 'position', id: a.seq, variant: a.variant, moves }, a.start));
}

function loadText() {
  const text = $('#analysis-text').value.trim();
  if (!text) return;
  A.start = { text };
  A.root = node(null, null);
  A.cur = A.root;
  request();
}

/** The pasted games become games of the site, each with its replay page. */
async function importText() {
  const text = $('#analysis-text').value.trim();
  const box = $('#analysis-imported');
  if (!text) return;
  try {
    const r = await api('POST', '/api/import', { text, variant: A.variant });
    if (r.games.length === 1) { go('/replay/' + r.games[0].id); return; }
    box.replaceChildren(el('ul', {}, ...r.games.map((g, i) => el('li', {},
      link('/replay/' + g.id, t('web-analysis-imported-game', { n: i + 1, moves: g.moves }))))));
  } catch (e) {
    A.error = e.message;
    renderError();
  }
}

// ---------- the editor ----------

function startEditing() {
  const p = A.pos;
  if (!p) return;
  A.editing = { cells: p.cells.split(''), width: p.width, height: p.height, side: p.to_move || 'black' };
  renderEditor();
  render();
}

function renderEditor() {
  const box = $('#analysis-editor');
  if (!box) return;
  const e = A.editing;
  if (!e) { box.replaceChildren(); return; }
  const side = el('select', { id: 'editor-side', 'aria-label': t('web-analysis-side'), onchange: ev => { e.side = ev.target.value; } },
    ...['black', 'white'].map(c => el('option', { value: c, selected: c === e.side }, t('web-analysis-to-move', { color: c }))));
  box.replaceChildren(el('div', { class: 'editor' },
    el('p', { class: 'meta' }, t('web-analysis-edit-hint')), side,
    el('div', { class: 'buttons' },
      button(t('web-analysis-clear'), { id: 'editor-clear', onclick: () => { e.cells = e.cells.map(c => (c === '#' ? c : '.')); render(); } }),
      button(t('web-analysis-edit-done'), { id: 'editor-done', class: 'primary', onclick: finishEditing }),
      button(t('web-cancel'), { id: 'editor-cancel', onclick: () => { A.editing = null; renderEditor(); render(); } }))));
}

function finishEditing() {
  const e = A.editing;
  const board = e.cells.map(c => (c === 'X' ? 'X' : c === 'O' ? 'O' : c === '#' ? '#' : '-')).join('') + ' ' + (e.side === 'black' ? 'X' : 'O');
  A.editing = null;
  renderEditor();
  A.start = { board };
  A.root = node(null, null);
  A.cur = A.root;
  request();
}

// ---------- drawing ----------

const sign = n => (n > 0 ? '+' : n < 0 ? '−' : '') + Math.abs(n);

function kindText(m) {
  if (m.kind === 'estimate') return t('web-analysis-depth', { n: m.depth });
  return t('web-analysis-kind-' + m.kind);
}

function render() {
  const a = A;
  if (!a) return;
  const wrap = $('#analysis-board');
  if (!wrap) return;
  if (a.editing) {
    const e = a.editing;
    const b = { width: e.width, height: e.height, cells: e.cells.join('') };
    const all = [];
    for (let r = 0; r < e.height; r++) for (let c = 0; c < e.width; c++) if (e.cells[r * e.width + c] !== '#') all.push(String.fromCharCode(97 + c) + (r + 1));
    wrap.replaceChildren(drawBoard(b, { legal: all, playable: true, label: t('web-board'), onMove: sq => {
      const c = sq.charCodeAt(0) - 97, r = Number(sq.slice(1)) - 1, i = r * e.width + c;
      e.cells[i] = { '.': 'X', X: 'O', O: '.' }[e.cells[i]] || '.';
      render();
    } }));
    return;
  }
  const p = a.pos;
  if (!p) return;
  const hints = {}, kinds = {}, titles = {};
  for (const m of a.values) {
    if (m.move === 'pass') continue;
    hints[m.move] = m.score;
    kinds[m.move] = m.kind;
    const name = openingName(m.opening);
    titles[m.move] = [name, `${m.move} ${sign(m.score)} (${kindText(m)})`, m.pv.join(' '), ...coachText(m.facts || [])].filter(Boolean).join('\n');
  }
  wrap.replaceChildren(drawBoard(p, { legal: p.legal_moves, playable: true, hints, hintKinds: kinds, titles, onMove: play, label: t('web-board') }));
  const status = p.to_move
    ? (p.must_pass ? t('web-analysis-must-pass', { color: p.to_move }) : t('web-analysis-to-move', { color: p.to_move }))
    : t('web-analysis-game-over', { score: sign(p.result) });
  $('#analysis-status').textContent = `${status} · ${colorName('black')} ${p.black_count} : ${p.white_count} ${colorName('white')}`;
  const opening = openingName(a.opening);
  $('#analysis-opening').textContent = opening ? t('web-opening', { name: opening }) : '';
  renderError();
  renderMoves();
  renderExplorer();
  renderLine();
  renderGraph();
  $('#an-first').disabled = $('#an-prev').disabled = !a.cur.parent;
  $('#an-next').disabled = !a.cur.children.length;
  $('#an-delete').disabled = !a.cur.parent;
}

function renderError() {
  const box = $('#analysis-error');
  if (box) box.textContent = A.error || '';
}

function play(sq) {
  A.cur = child(A.cur, sq);
  request();
}

function renderMoves() {
  const a = A, body = el('tbody');
  for (const m of a.values) {
    const name = openingName(m.opening);
    const why = coachText(m.facts || []);
    body.append(el('tr', { class: 'kind-' + m.kind, title: [m.pv.join(' '), ...why].join('\n'), 'data-why': why.join(' ') },
      el('td', {}, m.move === 'pass' ? el('span', {}, t('web-pass')) : button(m.move, { class: 'linkish', 'data-move': m.move, onclick: () => (m.move === 'pass' ? null : play(m.move)) })),
      el('td', { class: 'num' }, sign(m.score)),
      el('td', {}, el('span', { class: 'kind-badge ' + m.kind }, kindText(m))),
      el('td', { class: 'muted' }, name)));
  }
  const head = el('caption', {}, (a.done ? t('web-analysis-settled') : t('web-analysis-thinking', { n: a.depth })) + ' · ' + t('web-analysis-on-' + a.where));
  $('#analysis-moves').replaceChildren(head, body);
}

/** The line from the start to the current node and on along the main line, with the other
 * branches of each node as small buttons after its move. */
function renderLine() {
  const a = A, box = $('#analysis-line');
  const items = [];
  const path = [];
  for (let n = a.cur; n.move; n = n.parent) path.unshift(n);
  for (let n = a.cur.children[0]; n; n = n.children[0]) path.push(n);
  path.forEach((n, i) => {
    items.push(button(`${i + 1}. ${n.move === 'pass' ? t('web-pass') : n.move}`, { class: 'mv' + (n === a.cur ? ' current' : ''), onclick: () => jump(n) }));
    const others = n.parent.children.filter(c => c !== n);
    if (others.length) items.push(el('span', { class: 'variations' }, '(', ...others.map(o => button(o.move, { class: 'linkish', onclick: () => jump(o) })), ')'));
  });
  box.replaceChildren(...items);
}

/** The evaluation graph of the line (Black's view), from the values found at each node. */
function renderGraph() {
  const a = A, box = $('#analysis-graph');
  const nodes = [];
  for (let n = a.cur; n; n = n.parent) nodes.unshift(n);
  for (let n = a.cur.children[0]; n; n = n.children[0]) nodes.push(n);
  const pts = nodes.map((n, i) => [i, n.black]).filter(([, v]) => v !== null);
  if (pts.length < 2) { box.replaceChildren(); return; }
  const W = 300, H = 80, max = Math.max(8, ...pts.map(([, v]) => Math.abs(v)));
  const x = i => (i / Math.max(1, nodes.length - 1)) * W, y = v => H / 2 - (v / max) * (H / 2 - 4);
  const svgNS = 'http://www.w3.org/2000/svg';
  const s = document.createElementNS(svgNS, 'svg');
  s.setAttribute('viewBox', `0 0 ${W} ${H}`);
  s.setAttribute('class', 'eval-graph');
  s.setAttribute('role', 'img');
  s.setAttribute('aria-label', t('web-analysis-graph'));
  const mid = document.createElementNS(svgNS, 'line');
  Object.entries({ x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'axis' }).forEach(([k, v]) => mid.setAttribute(k, v));
  const line = document.createElementNS(svgNS, 'polyline');
  line.setAttribute('points', pts.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '));
  line.setAttribute('class', 'eval-line');
  const here = pathOf(a.cur).length;
  const cursor = document.createElementNS(svgNS, 'line');
  Object.entries({ x1: x(here), y1: 0, x2: x(here), y2: H, class: 'cursor-line' }).forEach(([k, v]) => cursor.setAttribute(k, v));
  s.append(mid, line, cursor);
  box.replaceChildren(s);
}
