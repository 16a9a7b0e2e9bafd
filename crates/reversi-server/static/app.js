// Reversi web app: plain JavaScript, no build step. Pages: home (new game, recent games) and
// game (/game/ID). Talks to the JSON API and the game's websocket (docs/api.md).
'use strict';

const TEXT = {
  en: {
    title: 'Reversi', newGame: 'New game', vsAi: 'Against the computer', vsFriend: 'Against a friend (invite link)',
    local: 'Two players on this device', level: 'Level', color: 'Your colour', black: 'Black', white: 'White',
    random: 'Random', variant: 'Variant', start: 'Start', recent: 'Recent games', none: 'No games yet.',
    yourTurn: 'Your turn', toMove: c => `${c} to move`, thinking: 'The computer is thinking…',
    waiting: 'Waiting for the other player…', passed: c => `${c} has no legal move and passes.`,
    undo: 'Undo', hint: 'Hint', resign: 'Resign', ggf: 'Download GGF', copy: 'Copy transcript', copied: 'Copied.',
    invite: 'Copy invite link', inviteText: 'Send this link to your friend:', join: 'Take the free seat',
    spectator: 'You are watching this game.', won: c => `${c} wins`, draw: 'Draw', resigned: c => `${c} resigned.`,
    close: 'Close', moves: 'Moves', connected: 'live', reconnecting: 'reconnecting…', confirmResign: 'Resign this game?',
    human: 'person', ai: 'computer', finished: 'finished', playing: 'playing', error: 'Error',
    keys: 'Keyboard: arrows move the yellow frame, Enter or Space plays, H hint, U undo.',
    variants: { 'othello': 'Othello 8×8', 'nxn:4': '4×4', 'nxn:6': '6×6', 'nxn:10': '10×10', 'nxn:12': '12×12',
      'nxn:14': '14×14', 'nxn:16': '16×16', 'nxn-parallel:4': '4×4, side-by-side start',
      'nxn-parallel:6': '6×6, side-by-side start', 'nxn-parallel:8': '8×8, side-by-side start',
      'nxn-parallel:10': '10×10, side-by-side start', 'grand': 'Grand Othello 10×10',
      'eight-stars': 'Eight stars (88 squares)', 'black-hole': 'Black hole', 'anti': 'Anti-reversi (fewest discs wins)',
      'xot': 'XOT opening', 'reversi-1880': 'Reversi 1880 (free centre, 32 discs)',
      'reversi-1880:white': 'Reversi 1880, white first' },
  },
  ru: {
    title: 'Реверси', newGame: 'Новая партия', vsAi: 'Против компьютера', vsFriend: 'С другом (по ссылке)',
    local: 'Вдвоём на этом устройстве', level: 'Уровень', color: 'Ваш цвет', black: 'Чёрные', white: 'Белые',
    random: 'Случайно', variant: 'Вариант', start: 'Начать', recent: 'Последние партии', none: 'Партий пока нет.',
    yourTurn: 'Ваш ход', toMove: c => `Ход: ${c}`, thinking: 'Компьютер думает…',
    waiting: 'Ждём второго игрока…', passed: c => `${c}: нет ходов, пас.`,
    undo: 'Отменить ход', hint: 'Подсказка', resign: 'Сдаться', ggf: 'Скачать GGF', copy: 'Копировать запись',
    copied: 'Скопировано.', invite: 'Копировать ссылку-приглашение', inviteText: 'Отправьте эту ссылку другу:',
    join: 'Занять свободное место', spectator: 'Вы наблюдаете за партией.', won: c => `Победа: ${c}`,
    draw: 'Ничья', resigned: c => `${c} сдались.`, close: 'Закрыть', moves: 'Ходы', connected: 'на связи',
    reconnecting: 'переподключение…', confirmResign: 'Сдаться в этой партии?', human: 'человек', ai: 'компьютер',
    finished: 'закончена', playing: 'идёт', error: 'Ошибка',
    keys: 'Клавиатура: стрелки двигают жёлтую рамку, Enter или пробел — ход, H — подсказка, U — отмена.',
    variants: { 'othello': 'Отелло 8×8', 'nxn:4': '4×4', 'nxn:6': '6×6', 'nxn:10': '10×10', 'nxn:12': '12×12',
      'nxn:14': '14×14', 'nxn:16': '16×16', 'nxn-parallel:4': '4×4, фишки рядом',
      'nxn-parallel:6': '6×6, фишки рядом', 'nxn-parallel:8': '8×8, фишки рядом',
      'nxn-parallel:10': '10×10, фишки рядом', 'grand': 'Большое Отелло 10×10',
      'eight-stars': 'Восемь звёзд (88 клеток)', 'black-hole': 'Чёрная дыра', 'anti': 'Антиреверси (меньше фишек — победа)',
      'xot': 'Дебют XOT', 'reversi-1880': 'Реверси 1880 (свободный центр, по 32 фишки)',
      'reversi-1880:white': 'Реверси 1880, первыми белые' },
  },
};

let lang = localStorage.getItem('lang') === 'ru' ? 'ru' : 'en';
const t = (key, ...args) => { const v = TEXT[lang][key]; return typeof v === 'function' ? v(...args) : v; };
const colorName = c => t(c);
const $ = sel => document.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'onclick' || k === 'onchange' || k === 'onsubmit') e[k] = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
};
const SVG = 'http://www.w3.org/2000/svg';
const svg = (tag, attrs = {}) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};
const squareName = (c, r) => String.fromCharCode(97 + c) + (r + 1);

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.headers['Content-Type'] = 'application/json'; opts.body = JSON.stringify(body); }
  const resp = await fetch(path, opts);
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error(data.error || resp.statusText);
  return data;
}

function setLang(l) {
  lang = l;
  localStorage.setItem('lang', l);
  document.documentElement.lang = l;
  $('#lang').textContent = l === 'en' ? 'RU' : 'EN';
  document.title = t('title');
  document.querySelectorAll('[data-i18n]').forEach(e => { e.textContent = t(e.dataset.i18n); });
  route();
}

// ---------- home ----------
async function home() {
  stopGame();
  const app = $('#app');
  app.replaceChildren();
  const mode = el('fieldset', {}, el('legend', {}, t('newGame')));
  for (const [v, key] of [['ai', 'vsAi'], ['friend', 'vsFriend'], ['local', 'local']]) {
    const input = el('input', { type: 'radio', name: 'mode', value: v });
    if (v === 'ai') input.checked = true;
    mode.append(el('label', {}, input, ' ' + t(key)));
  }
  const level = el('select', { id: 'level', name: 'level' });
  for (let l = 1; l <= 30; l++) level.append(el('option', { value: l }, String(l)));
  level.value = localStorage.getItem('level') || '5';
  const color = el('select', { id: 'color', name: 'color' });
  for (const c of ['black', 'white', 'random']) color.append(el('option', { value: c }, t(c)));
  const variant = el('select', { id: 'variant', name: 'variant' });
  for (const [v, name] of Object.entries(TEXT[lang].variants)) variant.append(el('option', { value: v }, name));
  const form = el('form', { id: 'new-game' }, mode,
    el('label', {}, t('level') + ' ', level), el('label', {}, t('color') + ' ', color),
    el('label', {}, t('variant') + ' ', variant), el('p', {}, el('button', { class: 'primary', type: 'submit', id: 'start' }, t('start'))));
  form.onsubmit = async ev => {
    ev.preventDefault();
    const m = form.querySelector('input[name=mode]:checked').value;
    localStorage.setItem('level', level.value);
    try {
      const r = await api('POST', '/api/games', { mode: m, level: Number(level.value), color: color.value, variant: variant.value });
      go('/game/' + r.game.id);
    } catch (e) { alert(t('error') + ': ' + e.message); }
  };
  app.append(form, el('h2', {}, t('recent')));
  const list = el('ul', { class: 'games' });
  app.append(list);
  try {
    const r = await api('GET', '/api/games?limit=20');
    if (!r.games.length) list.append(el('li', {}, t('none')));
    for (const g of r.games) {
      const a = el('a', { href: '/game/' + g.id }, `${TEXT[lang].variants[g.variant] || g.variant} — ${t(g.black)} / ${t(g.white)} — ${g.black_count}:${g.white_count} (${t(g.status)})`);
      a.onclick = ev => { ev.preventDefault(); go('/game/' + g.id); };
      list.append(el('li', {}, a));
    }
  } catch (e) { list.append(el('li', {}, e.message)); }
}

// ---------- game ----------
let G = null; // { id, game, you, ws, retry, cursor, hints, shownResult, notice }

function stopGame() {
  if (G && G.ws) { G.closing = true; G.ws.close(); }
  if (G && G.timer) clearTimeout(G.timer);
  G = null;
}

async function gamePage(id) {
  stopGame();
  G = { id, game: null, you: [], ws: null, retry: 0, cursor: null, hints: {}, shownResult: false, notice: '' };
  const app = $('#app');
  app.replaceChildren(el('p', {}, '…'));
  try {
    const r = await api('GET', '/api/games/' + id);
    G.game = r.game; G.you = r.you;
  } catch (e) { app.replaceChildren(el('p', {}, t('error') + ': ' + e.message)); return; }
  G.shownResult = G.game.status === 'finished';
  render();
  connect();
}

function connect() {
  if (!G) return;
  const g = G;
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${proto}//${location.host}/api/games/${g.id}/ws`);
  g.ws = ws;
  ws.onopen = () => { g.retry = 0; g.fresh = true; setConn(true); };
  ws.onmessage = ev => {
    const msg = JSON.parse(ev.data);
    if (msg.type === 'state') {
      // The first state after (re)connecting is the truth (a restarted server counts anew).
      if (!g.fresh && g.game && msg.game.version < g.game.version) return;
      g.fresh = false;
      const changed = !g.game || msg.game.ply !== g.game.ply;
      g.game = msg.game; g.you = msg.you;
      if (changed) { g.hints = {}; g.notice = ''; }
      if (G === g) render();
    } else if (msg.type === 'error') {
      g.notice = msg.error;
      if (G === g) renderSide();
    }
  };
  ws.onclose = () => {
    if (g.closing || G !== g) return;
    setConn(false);
    g.retry = Math.min(g.retry + 1, 6);
    g.timer = setTimeout(connect, 250 * 2 ** g.retry);
  };
}

function setConn(ok) { const c = $('#conn'); if (c) c.textContent = ok ? '● ' + t('connected') : '○ ' + t('reconnecting'); }

function myTurn() {
  const g = G.game;
  return g.status === 'playing' && g.to_move && G.you.includes(g.to_move) && !g.ai_thinking;
}

function sendMove(mv) {
  if (!myTurn() || !G.game.legal_moves.includes(mv)) return;
  const msg = { type: 'move', move: mv, ply: G.game.ply };
  if (G.ws && G.ws.readyState === WebSocket.OPEN) G.ws.send(JSON.stringify(msg));
  else api('POST', `/api/games/${G.id}/moves`, { move: mv, ply: G.game.ply })
    .then(r => { G.game = r.game; render(); }).catch(e => { G.notice = e.message; renderSide(); });
}

function render() {
  const app = $('#app');
  if (!$('#board-wrap')) {
    app.replaceChildren(el('div', { class: 'game' },
      el('div', { class: 'board-wrap', id: 'board-wrap' }),
      el('div', { class: 'side', id: 'side' })));
  }
  renderBoard();
  renderSide();
  const g = G.game;
  if (g.status === 'finished' && !G.shownResult) {
    G.shownResult = true;
    $('#result-text').textContent = resultText(g);
    const d = $('#result-dialog');
    if (d.showModal) d.showModal();
  }
}

function resultText(g) {
  const r = g.result;
  if (!r) return '';
  let s = r.winner ? t('won', colorName(r.winner)) : t('draw');
  s += ` ${r.black}:${r.white}`;
  if (r.resigned) s += ' — ' + t('resigned', colorName(r.resigned));
  return s;
}

function renderBoard() {
  const g = G.game, S = 40, M = 22;
  const W = g.width * S + M * 2, H = g.height * S + M * 2;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'grid', 'aria-label': t('title') });
  const legal = new Set(g.legal_moves), flipped = new Set(g.flipped), canMove = myTurn();
  for (let c = 0; c < g.width; c++) {
    const x = M + c * S + S / 2;
    for (const y of [M / 2, H - M / 2]) { const tx = svg('text', { x, y, class: 'coord' }); tx.textContent = String.fromCharCode(97 + c); root.append(tx); }
  }
  for (let r = 0; r < g.height; r++) {
    const y = M + r * S + S / 2;
    for (const x of [M / 2, W - M / 2]) { const tx = svg('text', { x, y, class: 'coord' }); tx.textContent = r + 1; root.append(tx); }
  }
  for (let r = 0; r < g.height; r++) for (let c = 0; c < g.width; c++) {
    const ch = g.cells[r * g.width + c], name = squareName(c, r);
    const x = M + c * S, y = M + r * S, cx = x + S / 2, cy = y + S / 2;
    if (ch === '#') { root.append(svg('rect', { x, y, width: S, height: S, class: 'hole' })); continue; }
    const sq = svg('g', { class: 'sq', 'data-sq': name, role: 'gridcell' });
    sq.append(svg('rect', { x, y, width: S, height: S, class: 'cell' }));
    let label = name;
    if (ch === 'X' || ch === 'O') {
      const disc = svg('circle', { cx, cy, r: S * 0.4, class: ch === 'X' ? 'disc-black' : 'disc-white' });
      if (flipped.has(name) || g.last_move === name) disc.classList.add('flip');
      sq.append(disc);
      label += ' ' + (ch === 'X' ? t('black') : t('white'));
    } else if (legal.has(name) && (canMove || G.you.length === 0)) {
      sq.append(svg('circle', { cx, cy, r: S * 0.3, class: 'legal' }));
      sq.append(svg('circle', { cx, cy, r: 3, class: 'legal-dot' }));
      label += ' +';
    }
    if (g.last_move === name) {
      // A small diamond: the last move is marked by shape, not by colour alone.
      sq.append(svg('path', { d: `M${cx} ${cy - 6}L${cx + 6} ${cy}L${cx} ${cy + 6}L${cx - 6} ${cy}Z`, class: 'last' }));
    }
    if (G.hints[name] !== undefined) {
      const tx = svg('text', { x: cx, y: cy, class: 'hint-text' }); tx.textContent = (G.hints[name] > 0 ? '+' : '') + G.hints[name]; sq.append(tx);
    }
    if (G.cursor === name) sq.append(svg('rect', { x: x + 2, y: y + 2, width: S - 4, height: S - 4, class: 'cursor' }));
    sq.setAttribute('aria-label', label);
    if (legal.has(name) && canMove) {
      sq.setAttribute('tabindex', '0');
      sq.addEventListener('click', () => sendMove(name));
      sq.addEventListener('keydown', ev => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); ev.stopPropagation(); sendMove(name); } });
    }
    root.append(sq);
  }
  $('#board-wrap').replaceChildren(root);
}

function renderSide() {
  const g = G.game, side = $('#side');
  if (!side) return;
  side.replaceChildren();
  const counts = el('div', { class: 'counts' },
    el('span', { class: g.to_move === 'black' ? 'on-move' : '' }, `● ${t('black')}: ${g.black_count}`),
    el('span', { class: g.to_move === 'white' ? 'on-move' : '' }, `○ ${t('white')}: ${g.white_count}`));
  let status;
  if (g.status === 'finished') status = resultText(g);
  else if (g.ai_thinking) status = t('thinking');
  else if (!g.seats_taken.black || !g.seats_taken.white) status = t('waiting');
  else if (myTurn()) status = t('yourTurn') + (G.you.length > 1 ? ` (${colorName(g.to_move)})` : '');
  else status = t('toMove', colorName(g.to_move));
  side.append(counts, el('div', { class: 'status', id: 'status' }, status));
  const notice = G.notice || (g.passed && g.status === 'playing' ? t('passed', colorName(g.passed)) : '');
  side.append(el('div', { class: 'notice', id: 'notice', role: 'status' }, notice));
  if (G.you.length === 0) {
    side.append(el('p', {}, t('spectator')));
    if (g.mode === 'friend' && (!g.seats_taken.black || !g.seats_taken.white)) {
      side.append(el('button', { class: 'primary', id: 'join', onclick: async () => {
        try { const r = await api('POST', `/api/games/${G.id}/join`); G.you = r.you; G.game = r.game; if (G.ws) G.ws.close(); render(); }
        catch (e) { G.notice = e.message; renderSide(); }
      } }, t('join')));
    }
  }
  const buttons = el('div', { class: 'buttons' });
  const playing = g.status === 'playing' && G.you.length > 0;
  if (g.mode === 'ai' && G.you.length) buttons.append(el('button', { id: 'undo', onclick: doUndo }, t('undo')));
  if (playing) buttons.append(el('button', { id: 'hint', onclick: doHint }, t('hint')));
  if (playing) buttons.append(el('button', { id: 'resign', onclick: doResign }, t('resign')));
  buttons.append(el('a', { href: `/api/games/${G.id}/ggf`, download: `reversi-${G.id}.ggf` }, el('button', { type: 'button' }, t('ggf'))));
  buttons.append(el('button', { id: 'copy', onclick: () => copyText(g.moves.filter(m => m !== 'pass').join('')) }, t('copy')));
  if (g.mode === 'friend' && G.you.length) buttons.append(el('button', { id: 'invite', onclick: () => copyText(location.origin + '/game/' + G.id) }, t('invite')));
  side.append(buttons);
  if (g.mode === 'friend' && G.you.length && (!g.seats_taken.black || !g.seats_taken.white)) {
    side.append(el('p', {}, t('inviteText') + ' ', el('code', {}, location.origin + '/game/' + G.id)));
  }
  const ol = el('ol', {});
  for (let i = 0; i < g.moves.length; i++) ol.append(el('li', {}, g.moves[i]));
  side.append(el('h3', {}, t('moves')), el('div', { class: 'moves', id: 'moves' }, ol));
  const mv = $('#moves'); if (mv) mv.scrollTop = mv.scrollHeight;
  side.append(el('p', { class: 'conn', id: 'conn' }, G.ws && G.ws.readyState === WebSocket.OPEN ? '● ' + t('connected') : '○ ' + t('reconnecting')));
  side.append(el('p', { class: 'conn' }, t('keys')));
}

async function doUndo() {
  try { const r = await api('POST', `/api/games/${G.id}/undo`); G.game = r.game; G.hints = {}; G.shownResult = false; render(); }
  catch (e) { G.notice = e.message; renderSide(); }
}
async function doHint() {
  try {
    const r = await api('GET', `/api/games/${G.id}/hint?n=3`);
    G.hints = {};
    for (const h of r.hints) if (h.mv !== 'pass') G.hints[h.mv] = h.score;
    G.notice = r.hints.map(h => `${h.mv} ${h.score > 0 ? '+' : ''}${h.score}`).join(', ');
    render();
  } catch (e) { G.notice = e.message; renderSide(); }
}
async function doResign() {
  if (!confirm(t('confirmResign'))) return;
  try { const r = await api('POST', `/api/games/${G.id}/resign`, {}); G.game = r.game; render(); }
  catch (e) { G.notice = e.message; renderSide(); }
}
function copyText(s) {
  const done = () => { G.notice = t('copied'); renderSide(); };
  if (navigator.clipboard) navigator.clipboard.writeText(s).then(done, () => prompt('', s)); else prompt('', s);
}

document.addEventListener('keydown', ev => {
  if (!G || !G.game || ev.target.tagName === 'INPUT' || ev.target.tagName === 'SELECT') return;
  const g = G.game;
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (dirs[ev.key]) {
    ev.preventDefault();
    let c = 0, r = 0;
    if (G.cursor) { c = G.cursor.charCodeAt(0) - 97; r = Number(G.cursor.slice(1)) - 1; }
    else if (g.legal_moves.length) { const m = g.legal_moves[0]; c = m.charCodeAt(0) - 97; r = Number(m.slice(1)) - 1; }
    else { G.cursor = 'a1'; }
    if (G.cursor) { c = Math.max(0, Math.min(g.width - 1, c + dirs[ev.key][0])); r = Math.max(0, Math.min(g.height - 1, r + dirs[ev.key][1])); }
    G.cursor = squareName(c, r);
    renderBoard();
  } else if ((ev.key === 'Enter' || ev.key === ' ') && G.cursor && ev.target.tagName !== 'BUTTON') {
    ev.preventDefault(); sendMove(G.cursor);
  } else if (ev.key === 'h' || ev.key === 'H') { if (myTurn()) doHint(); }
  else if (ev.key === 'u' || ev.key === 'U') { if (g.mode === 'ai' && G.you.length) doUndo(); }
});

// ---------- routing ----------
function go(path) { history.pushState(null, '', path); route(); }
function route() {
  const m = location.pathname.match(/^\/game\/([A-Za-z0-9]+)$/);
  if (m) { if (!G || G.id !== m[1]) gamePage(m[1]); else render(); } else home();
}
window.addEventListener('popstate', route);
$('#home-link').onclick = ev => { ev.preventDefault(); go('/'); };
$('#lang').onclick = () => setLang(lang === 'en' ? 'ru' : 'en');
setLang(lang);
