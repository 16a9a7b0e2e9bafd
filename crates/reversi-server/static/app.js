// Reversi web app: plain JavaScript, no build step. Pages: home (new game, recent games), game
// (/game/ID), archive (/archive: finished games), replay (/replay/ID: step through a game, its
// analysis and evaluation chart) and rules (/rules/VARIANT). Talks to the JSON API and the
// game's websocket (docs/api.md).
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
    archive: 'Archive', rules: 'Rules', rulesOf: 'Rules of this variant', rulesExample: what =>
      `Each new game of this variant picks its own ${what}; the rules below show one example.`,
    rulesHole: 'hole', rulesOpening: 'opening', startPosition: 'Start position',
    archiveTitle: 'Finished games', archiveEmpty: 'No finished games yet.', date: 'Date', players: 'Players',
    result: 'Result', analysis: 'Analysis', open: 'Replay', prevPage: '← Newer', nextPage: 'Older →',
    pageOf: (a, b, n) => `${a}–${b} of ${n}`, aiLevel: l => `computer, level ${l}`,
    replay: 'Replay', review: 'Replay and analyse', rematch: 'Rematch (colours swapped)',
    rematchOffer: 'Your opponent started a rematch with the colours swapped.', playRematch: 'Play the rematch',
    watchRematch: 'Watch the rematch', first: 'First position', prev: 'Previous move', next: 'Next move',
    last: 'Last position', plyOf: (k, n) => `Move ${k} of ${n}`, startPos: 'Start position',
    replayKeys: 'Keyboard: ← → step through the moves, Home and End jump to the start and the end.',
    analyse: 'Analyse', statusNone: 'Not analysed yet.', statusQueued: 'Analysis queued…',
    statusRunning: (a, b) => `Analysing… ${a} of ${b} moves`, statusDone: 'Analysed by the engine',
    statusFailed: e => `The analysis failed: ${e}`, analysisLevel: l => `(level ${l})`,
    chartAlt: 'Evaluation after each move, from Black\'s side', totalLoss: 'Total loss', mistakes: 'Mistakes',
    largest: 'Largest mistakes', discs: n => `${n} ${n === 1 ? 'disc' : 'discs'}`,
    verdict: (mv, p, s, b, bs, l) => l > 0 ? `${mv} (${p}) scores ${s}; the engine's ${b} scores ${bs}: ${l} lost.`
      : `${mv} (${p}) scores ${s}: the best move.`,
    notAnalysed: 'no analysis', analysedStatus: { none: '—', queued: 'queued', running: 'running', done: 'done', failed: 'failed' },
    back: 'Back to the game', toArchive: 'Archive',
    errors: { not_found: 'No such game.', not_finished: 'The game is not finished yet.', no_seat: 'Only the players can do this.',
      not_your_seat: 'Only the players can do this.', rate_limited: 'Too many requests; wait a moment.',
      not_your_turn: 'It is not your turn.', game_over: 'The game is over.', stale_ply: 'The game moved on; try again.',
      illegal_move: 'That move is not allowed.' },
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
    archive: 'Архив', rules: 'Правила', rulesOf: 'Правила этого варианта', rulesExample: what =>
      `Каждая новая партия этого варианта выбирает ${what} заново; ниже правила для одного примера.`,
    rulesHole: 'свою дыру', rulesOpening: 'свой дебют', startPosition: 'Начальная позиция',
    archiveTitle: 'Сыгранные партии', archiveEmpty: 'Сыгранных партий пока нет.', date: 'Дата', players: 'Игроки',
    result: 'Итог', analysis: 'Анализ', open: 'Просмотр', prevPage: '← Новее', nextPage: 'Старше →',
    pageOf: (a, b, n) => `${a}–${b} из ${n}`, aiLevel: l => `компьютер, уровень ${l}`,
    replay: 'Просмотр', review: 'Просмотр и анализ', rematch: 'Реванш (цвета меняются)',
    rematchOffer: 'Соперник начал реванш, цвета поменялись.', playRematch: 'Играть реванш',
    watchRematch: 'Смотреть реванш', first: 'Начальная позиция', prev: 'Предыдущий ход', next: 'Следующий ход',
    last: 'Конечная позиция', plyOf: (k, n) => `Ход ${k} из ${n}`, startPos: 'Начальная позиция',
    replayKeys: 'Клавиатура: ← → — по ходам, Home и End — в начало и в конец.',
    analyse: 'Анализировать', statusNone: 'Партия ещё не проанализирована.', statusQueued: 'Анализ в очереди…',
    statusRunning: (a, b) => `Идёт анализ… ${a} из ${b} ходов`, statusDone: 'Проанализировано движком',
    statusFailed: e => `Анализ не удался: ${e}`, analysisLevel: l => `(уровень ${l})`,
    chartAlt: 'Оценка после каждого хода, за чёрных', totalLoss: 'Всего потеряно', mistakes: 'Ошибок',
    largest: 'Крупнейшие ошибки', discs: n => `${n} ${plural(n, 'фишка', 'фишки', 'фишек')}`,
    verdict: (mv, p, s, b, bs, l) => l > 0 ? `${mv} (${p}): оценка ${s}; ход движка ${b}: ${bs}. Потеряно: ${l}.`
      : `${mv} (${p}): оценка ${s}, лучший ход.`,
    notAnalysed: 'нет анализа', analysedStatus: { none: '—', queued: 'в очереди', running: 'идёт', done: 'готов', failed: 'ошибка' },
    back: 'К партии', toArchive: 'Архив',
    errors: { not_found: 'Такой партии нет.', not_finished: 'Партия ещё не закончена.', no_seat: 'Это могут только игроки.',
      not_your_seat: 'Это могут только игроки.', rate_limited: 'Слишком много запросов; подождите немного.',
      not_your_turn: 'Сейчас не ваш ход.', game_over: 'Партия окончена.', stale_ply: 'Партия изменилась; попробуйте ещё раз.',
      illegal_move: 'Такой ход не разрешён.' },
    variants: { 'othello': 'Отелло 8×8', 'nxn:4': '4×4', 'nxn:6': '6×6', 'nxn:10': '10×10', 'nxn:12': '12×12',
      'nxn:14': '14×14', 'nxn:16': '16×16', 'nxn-parallel:4': '4×4, фишки рядом',
      'nxn-parallel:6': '6×6, фишки рядом', 'nxn-parallel:8': '8×8, фишки рядом',
      'nxn-parallel:10': '10×10, фишки рядом', 'grand': 'Большое Отелло 10×10',
      'eight-stars': 'Восемь звёзд (88 клеток)', 'black-hole': 'Чёрная дыра', 'anti': 'Антиреверси (меньше фишек — победа)',
      'xot': 'Дебют XOT', 'reversi-1880': 'Реверси 1880 (свободный центр, по 32 фишки)',
      'reversi-1880:white': 'Реверси 1880, первыми белые' },
  },
};

function plural(n, one, few, many) {
  const m10 = n % 10, m100 = n % 100;
  if (m10 === 1 && m100 !== 11) return one;
  if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) return few;
  return many;
}

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
const signed = n => (n > 0 ? '+' : n < 0 ? '−' : '') + Math.abs(n);
// The name of a variant: the preset's, or the resolved variant's family (xot:17 → XOT opening).
const variantName = v => TEXT[lang].variants[v] || (TEXT[lang].variants[v.split(':')[0]] ? `${TEXT[lang].variants[v.split(':')[0]]} (${v.split(':')[1]})` : v);
const playerName = (kind, level) => kind === 'ai' ? t('aiLevel', level) : t('human');
const dateText = secs => new Date(secs * 1000).toLocaleString(lang === 'ru' ? 'ru-RU' : 'en-GB',
  { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

// A link inside the app: a plain click navigates without reloading the page.
function link(path, text, attrs = {}) {
  const a = el('a', Object.assign({ href: path }, attrs), text);
  a.onclick = ev => { if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button) return; ev.preventDefault(); go(path); };
  return a;
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.headers['Content-Type'] = 'application/json'; opts.body = JSON.stringify(body); }
  const resp = await fetch(path, opts);
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    const known = data.code && TEXT[lang].errors[data.code];
    const e = new Error(known || data.error || resp.statusText);
    e.code = data.code;
    throw e;
  }
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

// Leaves whatever page was shown: closes its socket and timers.
function leavePage() {
  stopGame();
  stopReplay();
  const d = $('#result-dialog');
  if (d && d.open) d.close();
}

// ---------- board ----------
// Draws a board: `b` has width, height, cells, last_move, flipped; `o` may add legal (squares
// to mark), playable (whether they can be clicked), hints {square: score}, cursor, onMove.
function boardSvg(b, o = {}) {
  const S = 40, M = 22;
  const W = b.width * S + M * 2, H = b.height * S + M * 2;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'grid', 'aria-label': o.label || t('title') });
  const legal = new Set(o.legal || []), flipped = new Set(b.flipped || []), hints = o.hints || {};
  for (let c = 0; c < b.width; c++) {
    const x = M + c * S + S / 2;
    for (const y of [M / 2, H - M / 2]) { const tx = svg('text', { x, y, class: 'coord' }); tx.textContent = String.fromCharCode(97 + c); root.append(tx); }
  }
  for (let r = 0; r < b.height; r++) {
    const y = M + r * S + S / 2;
    for (const x of [M / 2, W - M / 2]) { const tx = svg('text', { x, y, class: 'coord' }); tx.textContent = r + 1; root.append(tx); }
  }
  for (let r = 0; r < b.height; r++) for (let c = 0; c < b.width; c++) {
    const ch = b.cells[r * b.width + c], name = squareName(c, r);
    const x = M + c * S, y = M + r * S, cx = x + S / 2, cy = y + S / 2;
    if (ch === '#') { root.append(svg('rect', { x, y, width: S, height: S, class: 'hole' })); continue; }
    const sq = svg('g', { class: 'sq', 'data-sq': name, role: 'gridcell' });
    sq.append(svg('rect', { x, y, width: S, height: S, class: 'cell' }));
    let label = name;
    if (ch === 'X' || ch === 'O') {
      const disc = svg('circle', { cx, cy, r: S * 0.4, class: ch === 'X' ? 'disc-black' : 'disc-white' });
      if (flipped.has(name) || b.last_move === name) disc.classList.add('flip');
      sq.append(disc);
      label += ' ' + (ch === 'X' ? t('black') : t('white'));
    } else if (legal.has(name)) {
      sq.append(svg('circle', { cx, cy, r: S * 0.3, class: 'legal' }));
      sq.append(svg('circle', { cx, cy, r: 3, class: 'legal-dot' }));
      label += ' +';
    }
    if (b.last_move === name) {
      // A small diamond: the last move is marked by shape, not by colour alone.
      sq.append(svg('path', { d: `M${cx} ${cy - 6}L${cx + 6} ${cy}L${cx} ${cy + 6}L${cx - 6} ${cy}Z`, class: 'last' }));
      label += ' ●';
    }
    if (hints[name] !== undefined) {
      const tx = svg('text', { x: cx, y: cy, class: 'hint-text' }); tx.textContent = (hints[name] > 0 ? '+' : '') + hints[name]; sq.append(tx);
    }
    if (o.cursor === name) sq.append(svg('rect', { x: x + 2, y: y + 2, width: S - 4, height: S - 4, class: 'cursor' }));
    sq.setAttribute('aria-label', label);
    if (legal.has(name) && o.playable && o.onMove) {
      sq.setAttribute('tabindex', '0');
      sq.addEventListener('click', () => o.onMove(name));
      sq.addEventListener('keydown', ev => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); ev.stopPropagation(); o.onMove(name); } });
    }
    root.append(sq);
  }
  return root;
}

// ---------- home ----------
async function home() {
  leavePage();
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
  variant.value = localStorage.getItem('variant') || 'othello';
  const rulesLink = link('/rules/' + variant.value, t('rulesOf'), { id: 'rules-link' });
  variant.onchange = () => {
    localStorage.setItem('variant', variant.value);
    rulesLink.href = '/rules/' + variant.value;
  };
  rulesLink.onclick = ev => { ev.preventDefault(); go('/rules/' + variant.value); };
  const form = el('form', { id: 'new-game' }, mode,
    el('label', {}, t('level') + ' ', level), el('label', {}, t('color') + ' ', color),
    el('label', {}, t('variant') + ' ', variant), ' ', rulesLink,
    el('p', {}, el('button', { class: 'primary', type: 'submit', id: 'start' }, t('start'))));
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
  app.append(list, el('p', {}, link('/archive', t('archiveTitle') + ' →', { id: 'archive-link' })));
  try {
    const r = await api('GET', '/api/games?limit=20');
    if (!r.games.length) list.append(el('li', {}, t('none')));
    for (const g of r.games) {
      const a = link('/game/' + g.id, `${variantName(g.variant)} — ${t(g.black)} / ${t(g.white)} — ${g.black_count}:${g.white_count} (${t(g.status)})`);
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
  leavePage();
  const secret = new URLSearchParams(location.hash.slice(1)).get('join');
  G = { id, game: null, you: [], ws: null, retry: 0, cursor: null, hints: {}, shownResult: false, notice: '', invite: null, joinSecret: secret };
  const app = $('#app');
  app.replaceChildren(el('p', {}, '…'));
  try {
    const r = await api('GET', '/api/games/' + id);
    G.game = r.game; G.you = r.you; G.invite = r.invite || null;
  } catch (e) { app.replaceChildren(el('p', {}, t('error') + ': ' + e.message)); return; }
  G.shownResult = G.game.status === 'finished';
  G.seenRematch = G.game.rematch;
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
    showResultDialog();
  } else if (g.rematch && g.rematch !== G.seenRematch) {
    // The other player started a rematch: offer it (the dialog, if open, says so too).
    G.seenRematch = g.rematch;
    if (G.you.length) showResultDialog();
  }
}

// The end of the game: the result, a rematch for the players, the replay and analysis.
function showResultDialog() {
  const g = G.game, d = $('#result-dialog');
  $('#result-text').textContent = resultText(g);
  const box = $('#result-actions');
  box.replaceChildren();
  if (g.rematch && G.you.length) box.append(el('p', { id: 'rematch-offer' }, t('rematchOffer')));
  if (G.you.length) {
    box.append(el('button', { class: 'primary', id: 'rematch', type: 'button', onclick: doRematch },
      g.rematch ? t('playRematch') : t('rematch')));
  }
  box.append(el('button', { id: 'review', type: 'button', onclick: () => { d.close(); go('/replay/' + g.id); } }, t('review')));
  if (d.showModal && !d.open) d.showModal();
}

async function doRematch() {
  try {
    const r = await api('POST', `/api/games/${G.id}/rematch`);
    const d = $('#result-dialog');
    if (d.open) d.close();
    go('/game/' + r.game.id);
  } catch (e) { G.notice = e.message; renderSide(); }
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
  const g = G.game, canMove = myTurn();
  const root = boardSvg(g, {
    legal: canMove || G.you.length === 0 ? g.legal_moves : [], playable: canMove, hints: G.hints,
    cursor: G.cursor, onMove: sendMove,
  });
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
  side.append(el('p', { class: 'variant-line' }, variantName(g.variant) + ' · ', link('/rules/' + g.variant, t('rules'), { id: 'game-rules' })));
  side.append(counts, el('div', { class: 'status', id: 'status' }, status));
  const notice = G.notice || (g.passed && g.status === 'playing' ? t('passed', colorName(g.passed)) : '');
  side.append(el('div', { class: 'notice', id: 'notice', role: 'status' }, notice));
  if (G.you.length === 0) {
    const open = g.mode === 'friend' && (!g.seats_taken.black || !g.seats_taken.white);
    if (open && G.joinSecret) {
      // The invite link: the seat is offered at once.
      side.append(el('button', { class: 'primary', id: 'join', onclick: async () => {
        try {
          const r = await api('POST', `/api/games/${G.id}/join`, { invite: G.joinSecret });
          G.you = r.you; G.game = r.game; G.invite = r.invite || null; G.joinSecret = null;
          history.replaceState(null, '', '/game/' + G.id);
          if (G.ws) G.ws.close(); render();
        } catch (e) { G.notice = e.message; renderSide(); }
      } }, t('join')));
    } else {
      side.append(el('p', {}, t('spectator')));
    }
  }
  const buttons = el('div', { class: 'buttons' });
  const playing = g.status === 'playing' && G.you.length > 0;
  if (g.mode === 'ai' && G.you.length) buttons.append(el('button', { id: 'undo', onclick: doUndo }, t('undo')));
  if (playing) buttons.append(el('button', { id: 'hint', onclick: doHint }, t('hint')));
  if (playing) buttons.append(el('button', { id: 'resign', onclick: doResign }, t('resign')));
  if (g.status === 'finished' && G.you.length) {
    buttons.append(el('button', { class: 'primary', id: 'side-rematch', onclick: doRematch }, g.rematch ? t('playRematch') : t('rematch')));
  }
  if (g.status === 'finished') buttons.append(link('/replay/' + G.id, t('review'), { class: 'button', id: 'side-review' }));
  buttons.append(el('a', { href: `/api/games/${G.id}/ggf`, download: `reversi-${G.id}.ggf` }, el('button', { type: 'button' }, t('ggf'))));
  buttons.append(el('button', { id: 'copy', onclick: () => copyText(g.moves.filter(m => m !== 'pass').join('')) }, t('copy')));
  if (g.mode === 'friend' && G.you.length && G.invite) buttons.append(el('button', { id: 'invite', onclick: () => copyText(inviteLink()) }, t('invite')));
  side.append(buttons);
  if (g.rematch && G.you.length) side.append(el('p', { class: 'notice' }, t('rematchOffer')));
  if (g.rematch && !G.you.length) side.append(el('p', {}, link('/game/' + g.rematch, t('watchRematch'), { id: 'watch-rematch' })));
  if (g.mode === 'friend' && G.you.length && G.invite && (!g.seats_taken.black || !g.seats_taken.white)) {
    side.append(el('p', {}, t('inviteText') + ' ', el('code', { id: 'invite-link' }, inviteLink())));
  }
  const ol = el('ol', {});
  for (let i = 0; i < g.moves.length; i++) ol.append(el('li', {}, g.moves[i]));
  side.append(el('h3', {}, t('moves')), el('div', { class: 'moves', id: 'moves' }, ol));
  const mv = $('#moves'); if (mv) mv.scrollTop = mv.scrollHeight;
  side.append(el('p', { class: 'conn', id: 'conn' }, G.ws && G.ws.readyState === WebSocket.OPEN ? '● ' + t('connected') : '○ ' + t('reconnecting')));
  side.append(el('p', { class: 'conn' }, t('keys')));
}

// The invite link carries its secret after `#`, which browsers never send to a server (so it
// stays out of logs); the invited friend's page sends it when taking the seat.
function inviteLink() { return `${location.origin}/game/${G.id}#join=${G.invite}`; }

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

function gameKeys(ev) {
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
  } else if ((ev.key === 'Enter' || ev.key === ' ') && G.cursor && ev.target.tagName !== 'BUTTON' && ev.target.tagName !== 'A') {
    ev.preventDefault(); sendMove(G.cursor);
  } else if (ev.key === 'h' || ev.key === 'H') { if (myTurn()) doHint(); }
  else if (ev.key === 'u' || ev.key === 'U') { if (g.mode === 'ai' && G.you.length) doUndo(); }
}

// ---------- archive ----------
const PAGE = 20;

async function archivePage() {
  leavePage();
  const page = Math.max(0, Number(new URLSearchParams(location.search).get('page')) || 0);
  const app = $('#app');
  app.replaceChildren(el('h2', {}, t('archiveTitle')), el('p', {}, '…'));
  let r;
  try { r = await api('GET', `/api/games?status=finished&offset=${page * PAGE}&limit=${PAGE}`); }
  catch (e) { app.replaceChildren(el('h2', {}, t('archiveTitle')), el('p', {}, t('error') + ': ' + e.message)); return; }
  app.replaceChildren(el('h2', {}, t('archiveTitle')));
  if (!r.games.length) { app.append(el('p', { id: 'archive-empty' }, t('archiveEmpty'))); if (page === 0) return; }
  const head = el('tr', {});
  for (const k of ['date', 'variant', 'players', 'result', 'moves', 'analysis']) head.append(el('th', { scope: 'col', class: 'col-' + k }, t(k)));
  const body = el('tbody', {});
  for (const g of r.games) {
    const result = (g.winner ? t('won', colorName(g.winner)) : t('draw')) + ` ${g.black_count}:${g.white_count}`;
    const tr = el('tr', { class: 'archive-row', 'data-id': g.id },
      el('td', { class: 'col-date' }, link('/replay/' + g.id, dateText(g.finished_at || g.updated_at), { class: 'replay-link' })),
      el('td', { class: 'col-variant' }, variantName(g.variant)),
      el('td', { class: 'col-players' }, `● ${playerName(g.black, g.level)}`, el('br'), `○ ${playerName(g.white, g.level)}`),
      el('td', { class: 'col-result' }, result),
      el('td', { class: 'col-moves num' }, String(g.move_count)),
      el('td', { class: 'col-analysis' }, TEXT[lang].analysedStatus[g.analysis] || g.analysis));
    body.append(tr);
  }
  if (r.games.length) app.append(el('div', { class: 'table-wrap' }, el('table', { class: 'archive', id: 'archive' }, el('thead', {}, head), body)));
  const nav = el('nav', { class: 'pager', 'aria-label': t('archiveTitle') });
  if (page > 0) nav.append(link(`/archive?page=${page - 1}`, t('prevPage'), { id: 'newer', class: 'button' }));
  if (r.games.length) nav.append(el('span', {}, t('pageOf', r.offset + 1, r.offset + r.games.length, r.total)));
  if (r.offset + r.games.length < r.total) nav.append(link(`/archive?page=${page + 1}`, t('nextPage'), { id: 'older', class: 'button' }));
  app.append(nav);
}

// ---------- replay ----------
let R = null; // { id, data, ply, analysis, timer, chart }

function stopReplay() {
  if (R && R.timer) clearTimeout(R.timer);
  R = null;
}

async function replayPage(id) {
  leavePage();
  const r = R = { id, data: null, ply: 0, analysis: null, timer: null, chart: null };
  const app = $('#app');
  app.replaceChildren(el('p', {}, '…'));
  try {
    r.data = await api('GET', `/api/games/${id}/replay`);
    r.analysis = await api('GET', `/api/games/${id}/analysis`);
  } catch (e) { app.replaceChildren(el('p', {}, t('error') + ': ' + e.message)); return; }
  if (R !== r) return;
  const fromHash = Number((location.hash.match(/^#ply-(\d+)$/) || [])[1]);
  r.ply = Number.isFinite(fromHash) && location.hash ? Math.min(fromHash, r.data.moves.length) : r.data.moves.length;
  const d = r.data;
  const title = `${variantName(d.variant)} — ● ${playerName(d.players.black, d.level)} / ○ ${playerName(d.players.white, d.level)}`;
  const controls = el('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': t('replay') });
  for (const [id2, key, sym, fn] of [['first', 'first', '|◀', () => 0], ['prev', 'prev', '◀', p => p - 1],
    ['next', 'next', '▶', p => p + 1], ['last', 'last', '▶|', () => R.data.moves.length]]) {
    controls.append(el('button', { id: 'replay-' + id2, type: 'button', title: t(key), 'aria-label': t(key), onclick: () => step(fn(R.ply)) }, sym));
  }
  controls.append(el('span', { id: 'ply-label', class: 'ply-label', 'aria-live': 'polite' }));
  app.replaceChildren(
    el('h2', { class: 'replay-title' }, title),
    el('div', { class: 'game' },
      el('div', { class: 'board-wrap' }, el('div', { id: 'replay-board' }), controls),
      el('div', { class: 'side', id: 'replay-side' },
        el('p', { class: 'status', id: 'replay-result' }, d.result ? resultText(d) : t('playing')),
        el('p', { id: 'replay-counts', class: 'counts' }),
        el('p', { id: 'verdict', class: 'verdict' }),
        el('h3', {}, t('moves')), el('div', { class: 'moves', id: 'replay-moves' }),
        el('p', { class: 'conn' }, t('replayKeys')),
        el('p', { class: 'buttons' }, link('/game/' + id, t('back'), { class: 'button' }), link('/archive', t('toArchive'), { class: 'button' }),
          link('/rules/' + d.variant, t('rules'), { class: 'button' })))),
    el('section', { id: 'analysis', class: 'analysis', 'aria-label': t('analysis') }));
  renderMoveList();
  renderReplay();
  renderAnalysis();
}

function step(ply) {
  if (!R || !R.data) return;
  R.ply = Math.max(0, Math.min(R.data.moves.length, ply));
  history.replaceState(null, '', `/replay/${R.id}#ply-${R.ply}`);
  renderReplay();
}

// The analysis entry of the move that led to position `ply`.
const verdictAt = ply => R.analysis && R.analysis.moves.find(m => m.ply === ply);

function renderMoveList() {
  const ol = el('ol', { id: 'replay-list' });
  R.data.moves.forEach((m, i) => {
    const v = verdictAt(i + 1);
    const b = el('button', { type: 'button', class: 'mv', 'data-ply': i + 1, onclick: () => step(i + 1) }, m);
    if (v && v.loss > 0) { b.classList.add('mistake'); b.append(el('span', { class: 'loss' }, ' −' + v.loss)); }
    ol.append(el('li', {}, b));
  });
  $('#replay-moves').replaceChildren(ol);
}

function renderReplay() {
  const d = R.data, f = d.frames[R.ply];
  $('#replay-board').replaceChildren(boardSvg({ width: d.width, height: d.height, cells: f.cells, last_move: f.last_move, flipped: f.flipped }));
  $('#ply-label').textContent = R.ply === 0 ? t('startPos') : t('plyOf', R.ply, d.moves.length);
  $('#replay-counts').replaceChildren(
    el('span', { class: f.to_move === 'black' ? 'on-move' : '' }, `● ${t('black')}: ${f.black_count}`),
    el('span', { class: f.to_move === 'white' ? 'on-move' : '' }, `○ ${t('white')}: ${f.white_count}`));
  $('#replay-first').disabled = $('#replay-prev').disabled = R.ply === 0;
  $('#replay-next').disabled = $('#replay-last').disabled = R.ply === d.moves.length;
  document.querySelectorAll('#replay-list button').forEach(b => {
    const on = Number(b.dataset.ply) === R.ply;
    b.classList.toggle('current', on);
    if (on) { b.setAttribute('aria-current', 'step'); b.scrollIntoView({ block: 'nearest' }); } else b.removeAttribute('aria-current');
  });
  const v = verdictAt(R.ply);
  $('#verdict').textContent = v ? t('verdict', v.played, colorName(v.player), signed(v.played_score), v.best, signed(v.best_score), v.loss) : '';
  moveChartCursor();
}

async function requestAnalysis() {
  try {
    R.analysis = await api('POST', `/api/games/${R.id}/analysis`);
    renderAnalysis();
  } catch (e) { $('#analysis-status').textContent = t('error') + ': ' + e.message; }
}

async function pollAnalysis(r) {
  if (R !== r) return;
  try { r.analysis = await api('GET', `/api/games/${r.id}/analysis`); } catch (e) { /* try again below */ }
  if (R !== r) return;
  renderMoveList();
  renderReplay();
  renderAnalysis();
}

function renderAnalysis() {
  const a = R.analysis, box = $('#analysis');
  if (!box) return;
  if (R.timer) { clearTimeout(R.timer); R.timer = null; }
  box.replaceChildren(el('h3', {}, t('analysis')));
  let status;
  switch (a.status) {
    case 'queued': status = t('statusQueued'); break;
    case 'running': status = t('statusRunning', a.progress.done, a.progress.total); break;
    case 'done': status = t('statusDone') + ' ' + t('analysisLevel', a.level); break;
    case 'failed': status = t('statusFailed', a.error || ''); break;
    default: status = t('statusNone');
  }
  box.append(el('p', { id: 'analysis-status', role: 'status' }, status));
  if ((a.status === 'none' || a.status === 'failed') && R.data.status === 'finished') {
    box.append(el('button', { class: 'primary', id: 'analyse', type: 'button', onclick: requestAnalysis }, t('analyse')));
  }
  if (a.status === 'queued' || a.status === 'running') {
    box.append(el('progress', { max: a.progress.total, value: a.progress.done, 'aria-label': status }));
    const r = R;
    R.timer = setTimeout(() => pollAnalysis(r), 1000);
  }
  if (a.status !== 'done') return;
  const chartBox = el('div', { class: 'chart', id: 'chart' });
  box.append(chartBox, totalsTable(a));
  loadChart(chartBox);
}

function totalsTable(a) {
  const head = el('tr', {}, el('th', { scope: 'col' }, t('players')), el('th', { scope: 'col' }, t('totalLoss')),
    el('th', { scope: 'col' }, t('mistakes')), el('th', { scope: 'col' }, t('largest')));
  const body = el('tbody', {});
  for (const c of ['black', 'white']) {
    const s = a.summary[c];
    const worst = el('td', {});
    s.worst.forEach((w, i) => {
      if (i) worst.append(', ');
      worst.append(el('button', { type: 'button', class: 'linkish', onclick: () => step(w.ply) }, `${w.ply}. ${w.played} −${w.loss} (${w.best})`));
    });
    body.append(el('tr', { id: 'totals-' + c }, el('th', { scope: 'row' }, (c === 'black' ? '● ' : '○ ') + colorName(c)),
      el('td', { class: 'num' }, t('discs', s.total_loss)), el('td', { class: 'num' }, `${s.mistakes} / ${s.moves}`), worst));
  }
  return el('div', { class: 'table-wrap' }, el('table', { class: 'totals', id: 'totals' }, el('thead', {}, head), body));
}

// The server draws the chart (reversi_render::score_chart_svg); it is put inline so that the
// current move can be marked on it and a click on it jumps to that move.
async function loadChart(box) {
  const r = R;
  try {
    const resp = await fetch(`/api/games/${r.id}/chart.svg?lang=${lang}`);
    if (!resp.ok) throw new Error(resp.statusText);
    const doc = new DOMParser().parseFromString(await resp.text(), 'image/svg+xml');
    const chart = document.importNode(doc.documentElement, true);
    if (R !== r || chart.nodeName !== 'svg') return;
    chart.removeAttribute('width'); chart.removeAttribute('height');
    chart.setAttribute('role', 'img');
    chart.setAttribute('aria-label', t('chartAlt'));
    const cursor = svg('line', { id: 'chart-cursor', y1: 10, y2: 76, stroke: '#d4a000', 'stroke-width': 0.6 });
    chart.append(cursor);
    chart.addEventListener('click', ev => {
      const pt = chart.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
      const x = pt.matrixTransform(chart.getScreenCTM().inverse()).x;
      const n = r.analysis.moves.length;
      const i = Math.round((x - CHART.left) / CHART.width * n);
      if (i >= 1 && i <= n) step(r.analysis.moves[i - 1].ply);
    });
    box.replaceChildren(chart);
    r.chart = chart;
    moveChartCursor();
  } catch (e) { box.replaceChildren(el('p', {}, t('error') + ': ' + e.message)); }
}

// The plot area of score_chart_svg (crates/reversi-render/src/chart.rs), in its units.
const CHART = { left: 16, width: 158, top: 10, height: 66 };

function moveChartCursor() {
  if (!R || !R.chart || !R.analysis) return;
  const line = R.chart.querySelector('#chart-cursor');
  const moves = R.analysis.moves, n = moves.length;
  // The point after the last analysed move at or before this ply (passes are not points).
  let i = 0;
  while (i < n && moves[i].ply <= R.ply) i++;
  const x = CHART.left + CHART.width * i / Math.max(n, 1);
  line.setAttribute('x1', x); line.setAttribute('x2', x);
}

function replayKeys(ev) {
  if (!R || !R.data) return;
  const k = { ArrowLeft: R.ply - 1, ArrowRight: R.ply + 1, Home: 0, End: R.data.moves.length }[ev.key];
  if (k === undefined) return;
  ev.preventDefault();
  step(k);
}

// ---------- rules ----------
async function rulesPage(variant) {
  leavePage();
  const app = $('#app');
  const select = el('select', { id: 'rules-variant' });
  for (const [v, name] of Object.entries(TEXT[lang].variants)) select.append(el('option', { value: v }, name));
  const family = variant.split(':')[0];
  if (!TEXT[lang].variants[variant]) select.append(el('option', { value: variant }, variantName(variant)));
  select.value = variant;
  select.onchange = () => go('/rules/' + select.value);
  app.replaceChildren(el('h2', {}, t('rules')), el('label', {}, t('variant') + ' ', select), el('p', {}, '…'));
  let r;
  try { r = await api('GET', `/api/rules/${encodeURIComponent(variant)}?lang=${lang}`); }
  catch (e) { app.lastChild.textContent = t('error') + ': ' + e.message; return; }
  const text = el('div', { class: 'rules-text', id: 'rules-text' }, el('h3', { id: 'rules-title' }, r.title));
  if (r.example_of) text.append(el('p', { class: 'notice', id: 'rules-example' }, t('rulesExample', family === 'xot' ? t('rulesOpening') : t('rulesHole'))));
  for (const p of r.paragraphs) text.append(el('p', {}, p));
  const figure = el('figure', { class: 'rules-board' },
    boardSvg({ width: r.width, height: r.height, cells: r.cells, flipped: [] }, { label: t('startPosition') }),
    el('figcaption', {}, t('startPosition')));
  app.replaceChildren(el('h2', {}, t('rules')), el('p', {}, el('label', {}, t('variant') + ' ', select)),
    el('div', { class: 'game' }, figure, text),
    el('p', {}, link('/', t('newGame'), { class: 'button' })));
}

// ---------- keyboard ----------
document.addEventListener('keydown', ev => {
  const tag = ev.target.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if ($('#result-dialog').open) return;
  if (G && G.game) gameKeys(ev);
  else if (R) replayKeys(ev);
});

// ---------- routing ----------
function go(path) { history.pushState(null, '', path); route(); }
function route() {
  const p = location.pathname;
  let m;
  if ((m = p.match(/^\/game\/([A-Za-z0-9]+)$/))) { if (!G || G.id !== m[1]) gamePage(m[1]); else render(); }
  else if ((m = p.match(/^\/replay\/([A-Za-z0-9]+)$/))) replayPage(m[1]);
  else if (p === '/archive') archivePage();
  else if ((m = p.match(/^\/rules(?:\/([^/]+))?$/))) rulesPage(m[1] ? decodeURIComponent(m[1]) : 'othello');
  else home();
}
window.addEventListener('popstate', route);
for (const [sel, path] of [['#home-link', '/'], ['#archive-nav', '/archive'], ['#rules-nav', '/rules']]) {
  $(sel).onclick = ev => { if (ev.ctrlKey || ev.metaKey || ev.shiftKey) return; ev.preventDefault(); go(path); };
}
$('#lang').onclick = () => setLang(lang === 'en' ? 'ru' : 'en');
setLang(lang);
