// The game page (/game/ID): the board between the two players, the move list as a game record
// (every move clickable to look back), the controls that make sense for who you are and where
// the game stands, live over the game's websocket.
import { api, errorText } from '../api.js';
import { drawBoard, squareName } from '../board.js';
import { $, el, go, link, button, hasKeyboard, touchScreen, announce, scrollWithin } from '../dom.js';
import { t, colorName, variantName } from '../i18n.js';
import { rememberGame, prefs } from '../prefs.js';
import { moveSound, endSound, tickSound } from '../sound.js';
import { strengthText } from '../strength.js';
import { resultText, endingOf, presetRows } from './summary.js';
import { avatar, flag } from '../avatar.js';
import { me } from '../account.js';
import { notifyTurn, refreshTurns } from '../turns.js';
import { clockText, lowTime, controlText } from '../clock.js';
import { openingAt } from '../opening.js';
import { analysisUrl } from './analysis.js';

/** Whether the last input was a key (not a pointer): the board keeps the keyboard's focus only
 * then. */
let keyboardLast = false;
document.addEventListener('keydown', () => { keyboardLast = true; }, true);
document.addEventListener('pointerdown', () => { keyboardLast = false; }, true);

let G = null;

/** Leaves the game page: closes the socket and timers. */
export function stopGame() {
  if (!G) return;
  G.closing = true;
  if (G.ws) G.ws.close();
  if (G.timer) clearTimeout(G.timer);
  if (G.tick) clearInterval(G.tick);
  G = null;
}

export async function gamePage(app, id) {
  const secret = new URLSearchParams(location.hash.slice(1)).get('join');
  G = {
    id, game: null, you: [], invite: null, joinSecret: secret, ws: null, retry: 0, timer: null,
    closing: false, view: null, hints: {}, notice: '', passNotice: '', passColor: null, animate: new Set(),
    shownResult: false, seenRematch: null, offline: false, confirm: null, premove: null, pending: null, queued: null,
    chat: [], clockAt: performance.now(), tick: null, cursor: null,
  };
  const g = G;
  app.replaceChildren(el('p', { class: 'muted' }, '…'));
  try {
    const r = await api('GET', '/api/games/' + id);
    if (G !== g) return;
    g.game = r.game; g.you = r.you; g.invite = r.invite || null;
  } catch (e) {
    if (G === g) app.replaceChildren(el('div', { class: 'empty-state' }, el('h1', {}, t('web-game-not-found')), el('p', {}, e.message), link('/', t('web-go-home'), { class: 'button' })));
    return;
  }
  if (g.you.length) rememberGame(id);
  g.shownResult = g.game.status !== 'playing';
  g.seenRematch = g.game.rematch;
  layout(app);
  render();
  connect(g);
  if (g.game.online) loadChat(g);
  if (conditionalAllowed()) loadConditional(g);
  if (g.game.online || g.game.mode === 'friend') {
    g.tick = setInterval(() => { if (G === g) { renderClocks(); renderAway(); } }, 100);
  }
}

function layout(app) {
  app.replaceChildren(el('div', { class: 'game-page' },
    el('div', { class: 'board-col' },
      el('div', { class: 'player', id: 'player-top' }),
      el('div', { class: 'board-wrap', id: 'board-wrap' }),
      el('div', { class: 'player', id: 'player-bottom' }),
      el('div', { class: 'move-confirm', id: 'move-confirm', hidden: true }),
      el('div', { class: 'history-bar', id: 'history-bar', hidden: true }),
      touchScreen() ? null : moveInput()),
    el('aside', { class: 'panel', 'aria-label': t('web-game-panel') },
      el('div', { class: 'game-head', id: 'game-head' }),
      el('div', { class: 'status', id: 'status' }),
      el('div', { class: 'opening', id: 'opening' }),
      el('div', { id: 'analyse-box' }),
      el('div', { class: 'notice', id: 'notice', role: 'status' }),
      el('div', { class: 'away', id: 'away-box', role: 'status', hidden: true }),
      el('div', { id: 'invite-box' }),
      el('div', { class: 'moves', id: 'moves' }),
      el('div', { class: 'controls', id: 'controls' }),
      el('div', { class: 'conditional', id: 'conditional-box', hidden: true }),
      G.game.online ? chatBox() : null,
      el('div', { class: 'meta', id: 'meta' }))));
}

// ---------- the socket ----------

function connect(g) {
  if (G !== g || g.closing) return;
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${proto}//${location.host}/api/games/${g.id}/ws`);
  g.ws = ws;
  ws.onopen = () => {
    g.retry = 0; g.offline = false;
    // A notice about the lost connection ends with it.
    if (g.networkNotice) { g.notice = ''; g.networkNotice = false; }
    if (G === g) render();
  };
  ws.onmessage = ev => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === 'state') {
      if (g.game && msg.game.version < g.game.version) return;
      arrived(g, msg.game, msg.you);
    } else if (msg.type === 'presence') {
      // Who is connected changed (nothing else): the players' marks, the absence notice, the
      // spectators' count.
      if (!g.game) return;
      g.game.presence = msg.presence;
      g.presenceAt = performance.now();
      G.awayKey = null;
      if (G === g) { renderPlayers(); renderAway(); renderMeta(); }
    } else if (msg.type === 'tournament_game') {
      // The tournament paired my next game (pushed once this one is over): go to it.
      if (G === g && g.game && g.game.online && msg.game !== g.id) nextTournamentGame(g, msg.game);
    } else if (msg.type === 'chat') {
      if (!g.chat.some(l => l.seq === msg.line.seq)) { g.chat.push(msg.line); if (G === g) renderChat(); }
    } else if (msg.type === 'error') {
      g.notice = errorText(msg.code);
      if (G === g) renderNotice();
    }
  };
  ws.onclose = ev => {
    if (g.closing || G !== g) return;
    g.offline = true;
    render();
    // 1012: the server restarts (another instance takes over): come back at once, spread
    // over half a second so that every page does not return in the same millisecond.
    if (ev.code === 1012) {
      g.retry = 0;
      g.timer = setTimeout(() => connect(g), 50 + Math.random() * 450);
      return;
    }
    g.retry = Math.min(g.retry + 1, 6);
    g.timer = setTimeout(() => connect(g), 250 * 2 ** g.retry);
  };
}

/** A new state of the game: animations, sounds, the pass notice, then the page. */
function arrived(g, game, you) {
  const old = g.game;
  g.game = game;
  g.clockAt = performance.now();
  g.presenceAt = g.clockAt;
  if (you) g.you = you;
  if (old && game.ply !== old.ply) {
    g.hints = {};
    g.notice = '';
    const added = game.ply > old.ply && game.moves.slice(0, old.ply).join() === old.moves.join()
      ? game.moves.slice(old.ply) : [];
    if (added.length) {
      // The notice of a pass stays until the side that passed moves again.
      const made = added.map((m, i) => [m, colorAt(game, old.ply + i)]);
      if (g.passColor && made.some(([m, c]) => m !== 'pass' && c === g.passColor)) {
        g.passNotice = ''; g.passColor = null;
      }
      const passes = made.filter(([m]) => m === 'pass');
      if (passes.length) {
        g.passColor = passes[passes.length - 1][1];
        g.passNotice = t('web-passed', { color: g.passColor });
        announce(g.passNotice);
      }
      if (game.last_move) g.animate = new Set([game.last_move, ...game.flipped]);
      if (added.some(m => m !== 'pass')) moveSound();
    } else {
      g.passNotice = ''; g.passColor = null;
    }
    if (g.view !== null && g.view > game.ply) g.view = null;
    // The server may have answered with the player's lines, or dropped those the game left.
    if (G === g && conditionalAllowed()) loadConditional(g);
  }
  const wasMine = Boolean(old && old.status === 'playing' && g.you.length === 1 && old.to_move === g.you[0]);
  if (old && game.takeback && game.takeback !== old.takeback && g.you.length === 1 && game.takeback !== g.you[0]) {
    announce(t('web-takeback-offer', { name: opponentName() }));
  }
  // A move waiting for its confirmation was for the position it was chosen in.
  if (old && game.version !== old.version) g.pending = null;
  if (G === g) {
    const isMine = game.status === 'playing' && g.you.length === 1 && game.to_move === g.you[0];
    if (g.queued && !g.offline) {
      // A move made while the server could not be reached goes now, if the game is where it
      // was and the move still legal; otherwise it is said to be dropped.
      const q = g.queued;
      g.queued = null;
      if (game.ply === q.ply && myTurn() && (game.legal_moves || []).includes(q.square)) {
        g.notice = ''; g.networkNotice = false;
        render();
        send(q.square);
        return;
      }
      g.notice = t('web-queued-dropped', { move: q.square }); announce(g.notice);
    }
    if (g.premove && (isMine || game.status !== 'playing')) {
      // The premove is played the moment the turn comes, if it is legal then (else dropped).
      const sq = g.premove;
      g.premove = null;
      if (isMine && myTurn() && (game.legal_moves || []).includes(sq)) {
        render();
        send(sq);
        return;
      }
      if (isMine) { g.notice = t('web-premove-dropped', { move: sq }); announce(g.notice); }
    }
    render();
    if (!wasMine && isMine && old && twoPeople()) notifyTurn(opponentName(), g.id);
    // The header's count of games waiting for the player follows at once.
    if (old && (wasMine !== isMine || game.status !== old.status) && me()) refreshTurns();
  }
}

/** The colour that made move `ply` (0-based): strict alternation, passes included. */
function colorAt(game, ply) {
  const first = game.first_to_move;
  return (ply % 2 === 0) === (first === 'black') ? 'black' : 'white';
}

// ---------- drawing ----------

function myTurn() {
  const g = G.game;
  return g.status === 'playing' && g.to_move && G.you.includes(g.to_move)
    && g.players[g.to_move] === 'human' && !g.ai_thinking && G.view === null;
}

function render() {
  if (!G || !G.game) return;
  renderTitle();
  renderBoard();
  renderPlayers();
  renderHead();
  renderStatus();
  renderOpening();
  renderNotice();
  renderInvite();
  renderMoves();
  renderControls();
  renderAway();
  renderMeta();
  const g = G.game;
  if (g.status !== 'playing' && !G.shownResult) {
    G.shownResult = true;
    if (g.status === 'finished') endSound();
    showResultDialog();
  } else if (g.rematch && g.rematch !== G.seenRematch) {
    G.seenRematch = g.rematch;
    if (G.you.length) showResultDialog();
  }
}

/** The tab's title: "Your move" first while the game waits for the viewer. */
function renderTitle() {
  const g = G.game;
  const name = c => (g.online && g.online[c].name) || seatName(c);
  const what = g.online ? `${name('black')} – ${name('white')}` : variantName(g.variant);
  document.title = (myTurn() && G.you.length === 1 ? t('web-your-turn') + ' · ' : '') + what + ' — ' + t('web-title');
}

/** The opponent's name (for the viewer with one seat). */
function opponentName() {
  const opp = G.you[0] === 'black' ? 'white' : 'black';
  const p = G.game.online && G.game.online[opp];
  return (p && p.name) || seatName(opp);
}

/** The named opening of the position shown (the live one, or the move looked back at). */
function renderOpening() {
  const box = $('#opening');
  if (!box) return;
  const name = openingAt(G.game.openings, G.view ?? G.game.ply);
  box.textContent = name ? t('web-opening', { name }) : '';
  // The analysis board, once the game is over (or for a game on one device): not a help
  // during a game against someone.
  const g = G.game, analyse = $('#analyse-box');
  if (analyse) {
    analyse.replaceChildren(g.status !== 'playing' || g.mode === 'local'
      ? button(t('web-analysis-open'), { id: 'game-analyse', onclick: () => go(analysisUrl(g.variant, g.moves, G.view ?? g.ply)) })
      : '');
  }
}

function renderBoard() {
  const g = G.game, wrap = $('#board-wrap');
  if (!wrap) return;
  let shown = g;
  if (G.view !== null && G.frames) {
    const f = G.frames[G.view];
    shown = { width: g.width, height: g.height, cells: f.cells, last_move: f.last_move, flipped: f.flipped };
  }
  const live = G.view === null;
  // The keyboard's place on the board survives the redraw: focus stays on the board.
  const focused = wrap.contains(document.activeElement);
  if (!G.cursor) G.cursor = (g.legal_moves && g.legal_moves[0]) || squareName(Math.floor(g.width / 2) - 1, Math.floor(g.height / 2) - 1);
  const premoving = canPremove();
  const ghost = live && G.queued ? { square: G.queued.square, color: G.you[0], kind: 'queued' }
    : live && G.premove ? { square: G.premove, color: G.you[0], kind: 'premove' }
    : live && G.pending ? { square: G.pending, color: G.you[0], kind: 'pending' } : null;
  const board = drawBoard(shown, {
    legal: live && g.status === 'playing' && !waiting() && (myTurn() || !G.you.length) ? g.legal_moves : [],
    // Offline the board still takes one move: it waits, seen, until the server is back.
    playable: (myTurn() && !(G.offline && G.queued)) || (premoving && !G.offline), onMove: premoving ? setPremove : sendMove,
    anyEmpty: premoving, premove: premoving, ghost, hints: live ? G.hints : {}, animate: live ? G.animate : new Set(),
    label: t('web-board'), cursor: G.cursor, onCursor: sq => { G.cursor = sq; },
  });
  G.animate = new Set();
  wrap.replaceChildren(board);
  // One stop of Tab on the board, even when the cursor's square is not a square (a hole).
  if (!board.querySelector('[tabindex="0"]')) {
    const first = board.querySelector('[tabindex]');
    if (first) { first.setAttribute('tabindex', '0'); G.cursor = first.dataset.sq; }
  }
  wrap.classList.toggle('my-turn', myTurn());
  wrap.classList.toggle('offline', G.offline);
  renderConfirm();
  // Only a keyboard player gets the focus back: after a click Chromium would frame the square.
  if (focused && keyboardLast) {
    const sq = board.querySelector(`[data-sq="${G.cursor}"]`);
    if (sq) sq.focus({ preventScroll: true });
  }
}

/** The box to type a move in ("d3", then Enter): played when legal, said why not otherwise. */
function moveInput() {
  const input = el('input', { id: 'move-input', class: 'move-input', autocomplete: 'off', spellcheck: 'false', maxlength: 8,
    placeholder: t('web-move-input-placeholder'), 'aria-label': t('web-move-input') });
  return el('form', { class: 'move-form', onsubmit: ev => {
    ev.preventDefault();
    const mv = input.value.trim().toLowerCase();
    if (!mv || !G || !G.game) return;
    const g = G.game;
    if (!myTurn() || !(g.legal_moves || []).includes(mv)) {
      G.notice = myTurn() ? t('web-move-not-legal', { move: mv }) : statusText();
      renderNotice();
      input.select(); // the next move typed replaces it
      return;
    }
    input.value = '';
    send(mv);
  } }, el('label', { for: 'move-input' }, t('web-move-input')), input);
}

/** Who sits at each side of the board: the viewer's colour at the bottom (an invited friend's
 * free seat too). */
function sides() {
  const g = G.game;
  const free = g.seats_taken.black ? 'white' : 'black';
  const bottom = G.you.length === 1 ? G.you[0] : (!G.you.length && G.joinSecret && waiting() ? free : 'black');
  return { bottom, top: bottom === 'black' ? 'white' : 'black' };
}

/** The rematch button's words: on one device both colours are the same people, so nothing is
 * swapped to speak of. */
const rematchLabel = g => g.mode === 'local' ? t('web-play-again') : g.rematch ? t('web-play-rematch') : t('web-rematch');

function seatName(color) {
  const g = G.game;
  if (g.online) {
    const p = g.online[color];
    const name = p.name ?? (p.guest ? t('web-player-guest') : t('web-player-deleted'));
    return G.you.includes(color) && G.you.length === 1 ? `${name} (${t('web-player-you')})` : name;
  }
  if (g.players[color] === 'ai') return t('web-player-computer', { strength: strengthText(g.level) });
  if (g.mode === 'local') return colorName(color);
  if (G.you.includes(color)) return t('web-player-you');
  const invited = !G.you.length && G.joinSecret;
  if (g.mode === 'friend' && !g.seats_taken[color]) {
    if (G.you.length) return t('web-player-invited');
    return invited ? t('web-player-you-invited') : t('web-player-free-seat');
  }
  return g.mode === 'friend' && (G.you.length || invited) ? t('web-player-friend') : t('web-player-person');
}

/** A friend game whose second seat is still free. */
const waiting = () => G.game.mode === 'friend' && (!G.game.seats_taken.black || !G.game.seats_taken.white);

function renderPlayers() {
  const g = G.game, { top, bottom } = sides();
  for (const [slot, color] of [['#player-top', top], ['#player-bottom', bottom]]) {
    const box = $(slot);
    const count = color === 'black' ? g.black_count : g.white_count;
    const onMove = g.status === 'playing' && g.to_move === color;
    const supply = g.supply ? el('span', { class: 'supply', title: t('web-supply-title') }, t('web-supply', { n: g.supply[color] })) : null;
    const p = g.online && g.online[color];
    const name = p && p.name ? link('/@/' + encodeURIComponent(p.name), seatName(color), { class: 'player-link' }) : seatName(color);
    // An account: its initials and the flag of its country.
    const who = p && p.name ? [avatar(p.name), name, flag(p.country)] : [name];
    const rating = p && p.rating ? el('span', { class: 'rating' }, String(p.rating) + (p.provisional ? '?' : ''),
      p.diff !== null && p.diff !== undefined ? el('span', { class: p.diff >= 0 ? 'diff up' : 'diff down' }, (p.diff >= 0 ? ' +' : ' −') + Math.abs(p.diff)) : null) : null;
    box.replaceChildren(...[
      el('span', { class: `stone ${color}`, 'aria-hidden': 'true' }),
      el('span', { class: 'name' }, ...who, p && p.bot ? el('span', { class: 'bot-tag' }, t('web-bot')) : null, rating, g.mode === 'local' ? null : el('small', {}, colorName(color))),
      supply,
      el('span', { class: 'count', 'aria-label': t('web-discs-of', { color, n: count }) }, String(count)),
      g.online && g.online.clock ? el('span', { class: 'clock', id: 'clock-' + color, role: 'timer', 'aria-label': t('web-clock-of', { color }) }) : null,
    ].filter(Boolean));
    if (twoPeople()) {
      // Offline, nobody's presence is known: no green dot that may be stale.
      const here = !G.offline && g.presence[color];
      box.querySelector('.name').prepend(el('span', { class: 'presence ' + (here ? 'here' : 'gone'), id: 'presence-' + color, title: t(here ? 'web-connected' : 'web-not-connected'), 'aria-label': t(here ? 'web-connected' : 'web-not-connected') }));
    }
    box.classList.toggle('on-move', onMove);
    box.classList.toggle('thinking', onMove && g.ai_thinking);
  }
  renderClocks();
}

/** Both clocks, counted down from the state's `now` (the page's own clock after that). */
function renderClocks() {
  const g = G && G.game, c = g && g.online && g.online.clock;
  if (!c) return;
  const spent = performance.now() - G.clockAt;
  for (const color of ['black', 'white']) {
    const box = $('#clock-' + color);
    if (!box) continue;
    const running = c.running === color && g.status === 'playing';
    const ms = (color === 'black' ? c.black_ms : c.white_ms) - (running ? spent : 0);
    const text = clockText(ms);
    if (box.textContent !== text) box.textContent = text;
    box.classList.toggle('running', running);
    const low = running && lowTime(ms, c.control);
    box.classList.toggle('low', low);
    // One tick a second while the player's own clock runs low.
    if (low && G.you.includes(color)) {
      const second = Math.ceil(ms / 1000);
      if (G.tickAt !== undefined && second < G.tickAt) tickSound();
      G.tickAt = second;
    } else if (G.you.includes(color)) G.tickAt = undefined;
  }
  const first = $('#first-move');
  if (first) {
    const left = c.first_move_by && g.status === 'playing' ? Math.ceil((c.first_move_by - c.now - spent) / 1000) : null;
    // Seconds while they are few; a correspondence game's days as its clock shows them.
    const time = left === null ? '' : left < 60 ? t('web-seconds-short', { n: left }) : clockText(left * 1000);
    first.textContent = left !== null && left >= 0 ? t('web-first-move-in', { color: g.to_move, time }) : '';
  }
}

/** A game between two people on two devices, both seated. */
const twoPeople = () => (G.game.mode === 'online' || G.game.mode === 'friend')
  && G.game.seats_taken.black && G.game.seats_taken.white && G.game.players.black === 'human' && G.game.players.white === 'human';

/** The line about an opponent who left, with the countdown to the claim and its button. */
function renderAway() {
  const box = $('#away-box');
  if (!box || !G || !G.game) return;
  const g = G.game, p = g.presence;
  const opp = G.you.length === 1 ? (G.you[0] === 'black' ? 'white' : 'black') : null;
  const awayMs = opp && p && g.status === 'playing' && twoPeople() ? p[opp + '_away_ms'] : undefined;
  if (awayMs === undefined || awayMs === null) { box.hidden = true; box.replaceChildren(); G.awayKey = null; return; }
  const elapsed = awayMs + (performance.now() - (G.presenceAt || G.clockAt));
  const after = p.claim_after_ms;
  const left = after === undefined || after === null ? null : Math.max(0, Math.ceil((after - elapsed) / 1000));
  const key = `${opp}:${left}`;
  if (G.awayKey === key) return;
  G.awayKey = key;
  box.hidden = false;
  const parts = [el('p', {}, t('web-opponent-left'))];
  if (left === null) parts.push(el('p', { class: 'muted' }, t('web-opponent-left-wait')));
  else if (left > 0) parts.push(el('p', { class: 'muted', id: 'claim-in' }, t('web-claim-in', { s: left })));
  else parts.push(el('p', {}, t('web-claim-or-wait')), button(t('web-claim-win'), { id: 'claim', class: 'primary', onclick: () => act('POST', `/api/games/${G.id}/claim`) }, 'flag'));
  box.replaceChildren(...parts);
}

// ---------- chat ----------

function chatBox() {
  // A guest watching may not chat: say so instead of a box that refuses on Send.
  if (!me() && !G.you.length) {
    return el('section', { class: 'chat', id: 'chat', 'aria-label': t('web-chat') },
      el('h2', { id: 'chat-title' }, t('web-chat-spectators')),
      el('ol', { class: 'chat-lines', id: 'chat-lines', 'aria-live': 'polite' }),
      link('/login', t('web-chat-sign-in'), { id: 'chat-sign-in', class: 'button small' }));
  }
  const input = el('input', { id: 'chat-input', maxlength: 140, autocomplete: 'off', 'aria-label': t('web-chat-say') });
  return el('section', { class: 'chat', id: 'chat', 'aria-label': t('web-chat') },
    el('h2', { id: 'chat-title' }, t(G.you.length ? 'web-chat-players' : 'web-chat-spectators')),
    el('ol', { class: 'chat-lines', id: 'chat-lines', 'aria-live': 'polite' }),
    el('form', { class: 'chat-form', onsubmit: async ev => {
      ev.preventDefault();
      const text = input.value;
      if (!text.trim()) return;
      try {
        const line = await api('POST', `/api/games/${G.id}/chat`, { text });
        input.value = '';
        if (!G.chat.some(l => l.seq === line.seq)) { G.chat.push(line); renderChat(); }
        $('#chat-error').textContent = '';
      } catch (e) { $('#chat-error').textContent = e.message; }
    } }, input, button(t('web-chat-send'), { type: 'submit', id: 'chat-send', class: 'small' })),
    el('p', { class: 'error', id: 'chat-error', role: 'alert' }));
}

async function loadChat(g) {
  try {
    // The players the reader blocks: their lines are not shown (the server leaves them out of
    // the history; pushed ones are dropped here).
    if (me()) g.blocked = new Set((await api('GET', '/api/account/people')).blocked.map(n => n.toLowerCase()));
    const r = await api('GET', `/api/games/${g.id}/chat`);
    if (G !== g) return;
    for (const l of r.lines) if (!g.chat.some(x => x.seq === l.seq)) g.chat.push(l);
    g.chat.sort((a, b) => a.seq - b.seq);
    renderChat();
  } catch { /* the chat stays empty; the game goes on */ }
}

/** The messages, as text (never markup): whatever a user wrote shows as written. */
function renderChat() {
  const box = $('#chat-lines');
  if (!box) return;
  const shown = G.chat.filter(l => !(l.author && G.blocked && G.blocked.has(l.author.toLowerCase())));
  box.replaceChildren(...shown.slice(-100).map(l => el('li', {},
    el('strong', {}, (l.author ?? t('web-player-guest')) + ': '), el('span', {}, l.text))));
  box.scrollTop = box.scrollHeight;
}

function renderHead() {
  const g = G.game;
  const o = g.online;
  const kind = g.mode === 'ai' ? t('web-mode-ai', { strength: strengthText(g.level) })
    : o ? [o.rated ? t('web-rated') : t('web-casual'), o.clock ? `${controlText(o.clock.control)} · ${t('web-speed-' + o.clock.speed)}` : ''].filter(Boolean).join(' · ')
    : g.mode === 'friend' ? t('web-mode-friend') : t('web-mode-local');
  // (replaceChildren would write a null as the text "null")
  $('#game-head').replaceChildren(...[
    el('div', { class: 'variant' }, variantName(g.variant), ' · ', link('/rules/' + g.variant, t('web-rules'), { id: 'game-rules' })),
    el('div', { class: 'kind' }, kind),
    g.tie === 'second-wins' ? el('div', { class: 'kind', id: 'tie-rule' }, t('web-tie-second-wins-note')) : null,
    o && o.tournament ? el('div', { class: 'kind' }, link('/tournament/' + o.tournament, t('web-t-back'), { id: 'game-tournament' })) : null,
    o ? el('div', { class: 'first-move', id: 'first-move', role: 'status' }) : null].filter(Boolean));
}

function statusText() {
  const g = G.game;
  if (g.status === 'finished') return resultText(g, G.you.length === 1 ? G.you[0] : null);
  if (g.status === 'aborted') return t('web-game-aborted');
  if (g.status === 'abandoned') return t('web-game-abandoned');
  if (g.status === 'closed') return t('web-game-closed');
  if (g.ai_thinking) return t('web-computer-thinking');
  if (waiting()) return G.you.length ? t('web-waiting-friend') : G.joinSecret ? t('web-friend-waits-for-you') : t('web-waiting-seat');
  if (myTurn()) return G.you.length > 1 ? t('web-turn-of', { color: g.to_move }) : t('web-your-turn');
  return t('web-turn-of', { color: g.to_move });
}

function renderStatus() {
  const s = $('#status'), text = statusText();
  if (s.textContent !== text) { s.textContent = text; announce(text); }
  s.classList.toggle('ended', G.game.status !== 'playing');
  s.title = convention();
}

/** The scoring rule, on hover, where a result was not counted on a full board. */
function convention() {
  const g = G.game;
  return g.status === 'finished' && endingOf(g.result) !== 'none' ? t('web-result-convention') : '';
}

function renderNotice() {
  const n = $('#notice');
  if (!n || !G) return;
  const parts = [G.offline ? t('web-offline') : '', G.notice, G.game.status === 'playing' ? G.passNotice : ''].filter(Boolean);
  n.textContent = parts.join(' ');
  n.classList.toggle('pass', Boolean(G.passNotice) && !G.notice);
}

function renderInvite() {
  const g = G.game, box = $('#invite-box');
  const open = g.mode === 'friend' && g.status === 'playing' && (!g.seats_taken.black || !g.seats_taken.white);
  box.replaceChildren();
  if (!open) return;
  if (G.you.length && G.invite) {
    const url = inviteLink();
    box.append(el('div', { class: 'invite' },
      el('p', {}, t('web-invite-text')),
      el('div', { class: 'invite-row' }, el('input', { id: 'invite-link', readonly: true, value: url, 'aria-label': t('web-invite-link'), onclick: ev => ev.target.select() }),
        button(t('web-copy'), { id: 'invite', onclick: () => copyText(url, t('web-invite-copied')) }, 'copy'))));
  } else if (!G.you.length && G.joinSecret) {
    const seat = g.seats_taken.black ? 'white' : 'black';
    box.append(el('div', { class: 'invite invited' },
      el('p', {}, t('web-invited', { color: seat })),
      button(t('web-join', { color: seat }), { id: 'join', class: 'primary', onclick: doJoin }, 'play')));
  } else if (!G.you.length) {
    box.append(el('p', { class: 'muted' }, t('web-invite-only')));
  }
}

/** The move list as a game record: one row per move number, passes marked, every move a
 * button that shows the position after it. */
function renderMoves() {
  const g = G.game, box = $('#moves');
  const first = g.first_to_move, second = first === 'black' ? 'white' : 'black';
  const table = el('table', { class: 'record', id: 'record' },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, colorName(first)), el('th', { scope: 'col' }, colorName(second)))));
  const preset = g.preset || [];
  if (preset.length) table.append(el('tbody', { class: 'preset-moves' }, ...presetRows(preset)));
  const body = el('tbody', {});
  for (let i = 0; i < g.moves.length; i += 2) {
    const tr = el('tr', {}, el('th', { scope: 'row' }, String((preset.length + i) / 2 + 1)));
    for (const k of [i, i + 1]) {
      const m = g.moves[k];
      if (m === undefined) { tr.append(el('td', {})); continue; }
      const current = G.view === null ? k + 1 === g.ply : G.view === k + 1;
      const b = el('button', { type: 'button', class: 'mv' + (m === 'pass' ? ' pass' : '') + (current ? ' current' : ''), 'data-ply': k + 1,
        'aria-current': current ? 'step' : null, onclick: () => viewAt(k + 1) }, m === 'pass' ? t('web-pass') : m);
      tr.append(el('td', {}, b));
    }
    body.append(tr);
  }
  table.append(body);
  if (!g.moves.length && !preset.length) box.replaceChildren(el('p', { class: 'muted' }, t('web-no-moves-yet')));
  else box.replaceChildren(table);
  // Only the list scrolls to the current move, never the page (on a phone the board would
  // leave the screen).
  const cur = box.querySelector('.current');
  if (cur) scrollWithin(box, cur);
  const bar = $('#history-bar');
  if (G.view === null) { bar.hidden = true; bar.replaceChildren(); }
  else {
    bar.hidden = false;
    bar.replaceChildren(el('span', {}, G.view === 0 ? t('web-viewing-start') : t('web-viewing-move', { n: G.view, total: g.ply })),
      button(t('web-back-to-game'), { id: 'back-live', class: 'primary', onclick: () => viewAt(null) }, 'play'));
  }
}

function renderControls() {
  const g = G.game, box = $('#controls');
  const me = G.you.length > 0, playing = g.status === 'playing';
  const seated = g.seats_taken.black && g.seats_taken.white;
  const b = [];
  if (me && playing && g.mode === 'ai') {
    b.push(button(t('web-hint'), { id: 'hint', onclick: doHint, disabled: !myTurn() }, 'bulb'));
    b.push(button(t('web-undo'), { id: 'undo', onclick: doUndo, disabled: !canUndo() }, 'undo'));
  }
  if (me && playing && g.takebacks && G.you.length === 1 && !g.takeback && hasOwnMove(G.you[0])) {
    b.push(button(t('web-takeback'), { id: 'takeback', title: t('web-takeback-title'), onclick: () => act('POST', `/api/games/${G.id}/takeback`) }, 'undo'));
  }
  if (me && playing && g.can_abort) b.push(button(t('web-abort'), { id: 'abort', onclick: doAbort }, 'x'));
  else if (me && playing && seated) b.push(button(t('web-resign'), { id: 'resign', onclick: doResign }, 'flag'));
  if (me && g.status === 'finished' && !(g.online && g.online.tournament)) b.push(button(rematchLabel(g), { id: 'side-rematch', class: 'primary', onclick: doRematch }, 'repeat'));
  if (!playing) b.push(button(t('web-new-game'), { id: 'new-game', onclick: () => go('/') }, 'plus'));
  if (g.status === 'finished') b.push(link('/replay/' + G.id, [t('web-review')], { class: 'button', id: 'side-review' }));
  if (g.rematch && !me) b.push(link('/game/' + g.rematch, [t('web-watch-rematch')], { class: 'button', id: 'watch-rematch' }));
  const more = el('div', { class: 'more-actions' },
    el('a', { href: `/api/games/${G.id}/ggf`, download: `reversi-${G.id}.ggf`, class: 'button small', id: 'ggf' }, t('web-download-ggf')),
    button(t('web-copy-moves'), { id: 'copy', class: 'small', onclick: () => copyText(g.moves.filter(m => m !== 'pass').join(''), t('web-copied')) }, 'copy'));
  box.replaceChildren(el('div', { class: 'buttons' }, b), more);
  const offer = takebackBox();
  if (offer) box.prepend(offer);
  if (G.confirm) box.prepend(G.confirm);
}

/** A takeback offer waiting: the opponent's, with Accept and Decline, or the player's own,
 * with Cancel. */
function takebackBox() {
  const g = G.game, by = g.takeback;
  if (!by || g.status !== 'playing' || G.you.length !== 1) return null;
  const path = a => `/api/games/${G.id}/takeback${a}`;
  if (by === G.you[0]) {
    return el('div', { class: 'offer', id: 'takeback-offer', role: 'status' },
      el('p', {}, t('web-takeback-asked')),
      button(t('web-takeback-withdraw'), { id: 'takeback-cancel', onclick: () => act('POST', path('/decline')) }, 'x'));
  }
  return el('div', { class: 'offer incoming', id: 'takeback-offer', role: 'alert' },
    el('p', {}, t('web-takeback-offer', { name: opponentName() })),
    button(t('web-takeback-accept'), { id: 'takeback-accept', class: 'primary', onclick: () => act('POST', path('/accept')) }, 'undo'),
    button(t('web-takeback-decline'), { id: 'takeback-decline', onclick: () => act('POST', path('/decline')) }, 'x'));
}

/** Whether `color` has made a move of its own (not a pass) that could be taken back. */
function hasOwnMove(color) {
  const g = G.game;
  return g.moves.some((m, k) => m !== 'pass' && colorAt(g, k) === color);
}

function canUndo() {
  const g = G.game;
  if (!myTurn() && !g.ai_thinking) return false;
  return hasOwnMove(G.you[0]);
}

// ---------- conditional premoves (correspondence) ----------

/** Whether the player may leave conditional premoves: a correspondence game between two
 * people, one seat, still played. */
function conditionalAllowed() {
  const g = G.game, c = g.online && g.online.clock;
  return g.status === 'playing' && G.you.length === 1 && twoPeople() && Boolean(c && /^\d+d$/.test(c.control));
}

async function loadConditional(g) {
  try { g.conditional = (await api('GET', `/api/games/${g.id}/conditional`)).lines; } catch { return; }
  if (G === g) renderConditional();
}

/** The player's lines ("if they play e6, I answer f4; then if c3, c4"), one per row, kept by
 * the server and played for them when the game follows one; seen by nobody else. */
function renderConditional() {
  const box = $('#conditional-box');
  if (!box || !G) return;
  // Written while the opponent is to move (on one's own move, one plays).
  if (!conditionalAllowed() || G.conditional === undefined || G.game.to_move === G.you[0]) { box.hidden = true; return; }
  box.hidden = false;
  const lines = G.conditional;
  const count = t('web-conditional-count', { n: lines.length });
  if (box.firstChild) {
    $('#conditional-count').textContent = count;
    const area = $('#conditional-lines');
    if (document.activeElement !== area) area.value = lines.join('\n');
    return;
  }
  const area = el('textarea', { id: 'conditional-lines', rows: 4, maxlength: 2000, spellcheck: 'false', autocomplete: 'off',
    placeholder: t('web-conditional-placeholder'), 'aria-label': t('web-conditional') });
  area.value = lines.join('\n');
  const status = el('p', { class: 'muted', id: 'conditional-status', role: 'status' });
  const save = async () => {
    try {
      const r = await api('PUT', `/api/games/${G.id}/conditional`, { lines: area.value.split('\n') });
      G.conditional = r.lines;
      area.value = r.lines.join('\n');
      $('#conditional-count').textContent = t('web-conditional-count', { n: r.lines.length });
      status.textContent = r.lines.length ? t('web-conditional-saved', { n: r.lines.length }) : t('web-conditional-cleared');
    } catch (e) { status.textContent = conditionalError(e); }
  };
  box.append(el('details', { open: lines.length > 0 },
    el('summary', {}, t('web-conditional'), ' ', el('span', { class: 'muted', id: 'conditional-count' }, count)),
    el('p', { class: 'muted small' }, t('web-conditional-lead')),
    area,
    button(t('web-conditional-save'), { id: 'conditional-save', onclick: save }, 'play'),
    status));
}

/** Why the lines were refused, in the page's language: the line (and move) at fault, read
 * out of the server's words ("line 2, move 3: …"). */
function conditionalError(e) {
  if (e.code !== 'conditional') return e.message;
  const m = /line (\d+)(?:, move (\d+))?/.exec(e.detail || '');
  if (m && m[2]) return t('web-conditional-bad-move', { line: Number(m[1]), move: Number(m[2]) });
  if (m) return t('web-conditional-bad-line', { line: Number(m[1]) });
  return e.message;
}

/** Whether a click now chooses a premove: a game between two people, the player's opponent to
 * move, premoves on in the settings, the live position shown. */
function canPremove() {
  const g = G.game;
  return prefs.premove && g.status === 'playing' && G.you.length === 1 && twoPeople() && G.view === null
    && g.to_move && g.to_move !== G.you[0] && !G.offline;
}

/** One premove at a time (as lichess): a click on an empty square sets it, on the same square
 * again clears it; it is played when the turn comes if legal then. */
function setPremove(sq) {
  G.premove = G.premove === sq ? null : sq;
  G.notice = G.premove ? t('web-premove-set', { move: sq }) : t('web-premove-cleared');
  announce(G.notice);
  renderBoard();
  renderNotice();
}

/** Below the board while a tapped move waits for its confirmation: Confirm and Cancel. */
function renderConfirm() {
  const box = $('#move-confirm');
  if (!box) return;
  if (!G.pending || !myTurn()) { G.pending = null; box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  box.replaceChildren(
    button(t('web-confirm-move', { move: G.pending }), { id: 'confirm-move', class: 'primary', onclick: () => send(G.pending) }, 'play'),
    button(t('web-cancel-move'), { id: 'cancel-move', onclick: () => { G.pending = null; renderBoard(); } }, 'x'));
}

function renderMeta() {
  const box = $('#meta');
  if (!box || !G) return;
  const live = G.ws && G.ws.readyState === WebSocket.OPEN;
  const items = [el('span', { class: 'conn ' + (live ? 'live' : 'off'), id: 'conn' }, live ? t('web-live') : t('web-reconnecting'))];
  const watching = G.game.presence ? G.game.presence.spectators : 0;
  if (watching) items.push(el('span', { class: 'watching', id: 'spectators' }, t('web-spectators', { n: watching })));
  if (G.you.length && hasKeyboard() && G.game.status === 'playing') items.push(el('span', { class: 'keys' }, t('web-keys-game')));
  else if (hasKeyboard()) items.push(el('span', { class: 'keys' }, t('web-keys-history')));
  box.replaceChildren(...items);
  renderNotice();
}

// ---------- looking back ----------

async function viewAt(ply) {
  const g = G.game;
  if (ply === null || ply >= g.ply) { G.view = null; render(); return; }
  if (!G.frames || G.frames.length !== g.ply + 1) {
    try { G.frames = (await api('GET', `/api/games/${G.id}/replay`)).frames; } catch (e) { G.notice = e.message; renderNotice(); return; }
  }
  G.view = Math.max(0, ply);
  render();
}

// ---------- actions ----------

/** A click (or Enter) on a legal square: played, or on a touch screen with confirmation on,
 * shown as a see-through disc with Confirm and Cancel below the board (a second tap on the same
 * square confirms too). */
function sendMove(sq) {
  if (!myTurn()) return;
  if (prefs.confirm && touchScreen() && G.pending !== sq) {
    G.pending = sq;
    renderBoard();
    return;
  }
  send(sq);
}

/** The move goes to the server. */
function send(sq) {
  if (!myTurn()) return;
  G.pending = null;
  if (G.offline) {
    // Kept, not dropped: the move waits on the dimmed board and goes when the server is back
    // (if it is still legal then).
    G.queued = { square: sq, ply: G.game.ply };
    G.notice = t('web-move-queued', { move: sq }); G.networkNotice = true;
    renderBoard();
    renderNotice();
    return;
  }
  const msg = { type: 'move', move: sq, ply: G.game.ply };
  G.cursor = sq;
  if (G.ws && G.ws.readyState === WebSocket.OPEN) G.ws.send(JSON.stringify(msg));
  else act('POST', `/api/games/${G.id}/moves`, { move: sq, ply: G.game.ply });
}

async function act(method, path, body) {
  const g = G;
  try {
    const r = await api(method, path, body);
    if (G !== g) return r;
    if (r.game) arrived(g, r.game, r.you);
    return r;
  } catch (e) {
    if (G === g) { g.notice = e.message; g.networkNotice = e.code === 'offline'; renderNotice(); }
    return null;
  }
}

async function doHint() {
  if (!myTurn()) return;
  const g = G;
  const r = await act('GET', `/api/games/${g.id}/hint?n=5`);
  if (!r || G !== g) return;
  g.hints = Object.fromEntries(r.hints.map(h => [h.mv, h.score]));
  renderBoard();
}

const doUndo = () => act('POST', `/api/games/${G.id}/undo`);
const doAbort = () => act('POST', `/api/games/${G.id}/abort`);

function doResign() {
  // A confirmation in the page, not a browser dialog: it can be translated and styled.
  G.confirm = el('div', { class: 'confirm', role: 'alertdialog', 'aria-label': t('web-confirm-resign') },
    el('p', {}, t('web-confirm-resign')),
    button(t('web-resign-yes'), { id: 'resign-yes', class: 'danger', onclick: () => { G.confirm = null; act('POST', `/api/games/${G.id}/resign`, {}); } }),
    button(t('web-resign-no'), { id: 'resign-no', onclick: () => { G.confirm = null; renderControls(); } }));
  renderControls();
  $('#resign-no').focus();
}

async function doJoin() {
  const g = G;
  const r = await act('POST', `/api/games/${g.id}/join`, { invite: g.joinSecret });
  if (!r || G !== g) return;
  g.you = r.you; g.invite = r.invite || null; g.joinSecret = null;
  rememberGame(g.id);
  history.replaceState(null, '', '/game/' + g.id);
  if (g.ws) g.ws.close(); // reconnect with the new seat's cookie
  render();
}

async function doRematch() {
  const r = await act('POST', `/api/games/${G.id}/rematch`);
  if (!r) return;
  const d = $('#result-dialog');
  if (d.open) d.close();
  rememberGame(r.game.id);
  go('/game/' + r.game.id);
}

function inviteLink() { return `${location.origin}/game/${G.id}#join=${G.invite}`; }

function copyText(s, done) {
  const ok = () => { G.notice = done; renderNotice(); };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(s).then(ok, () => prompt('', s));
  else { prompt('', s); }
}

// ---------- the end ----------

/** After a tournament game: the player's next game there, pushed by the game's socket. */
function nextTournamentGame(g, next) {
  sessionStorage.setItem('t-game-' + g.game.online.tournament, next);
  rememberGame(next);
  const d = $('#result-dialog');
  if (d.open) d.close();
  go('/game/' + next);
}

function showResultDialog() {
  const g = G.game, d = $('#result-dialog');
  $('#result-title').textContent = g.status === 'finished' ? t('web-game-over') : statusText();
  $('#result-text').textContent = g.status === 'finished' ? resultText(g, G.you.length === 1 ? G.you[0] : null) : '';
  $('#result-text').title = convention();
  const box = $('#result-actions');
  box.replaceChildren();
  if (g.rematch && G.you.length) box.append(el('p', { id: 'rematch-offer' }, t('web-rematch-offer')));
  if (G.you.length && g.status === 'finished' && !(g.online && g.online.tournament)) box.append(button(rematchLabel(g), { class: 'primary', id: 'rematch', onclick: doRematch }, 'repeat'));
  if (g.online && g.online.tournament) box.append(button(t('web-t-back'), { id: 'dialog-tournament', class: 'primary', onclick: () => { d.close(); go('/tournament/' + g.online.tournament); } }));
  else box.append(button(t('web-new-game'), { id: 'dialog-new-game', onclick: () => { d.close(); go('/'); } }, 'plus'));
  if (g.status === 'finished') box.append(button(t('web-review'), { id: 'review', onclick: () => { d.close(); go('/replay/' + g.id); } }, 'search'));
  if (d.showModal && !d.open) d.showModal();
}

// ---------- keys ----------

/** ← → look back and forth through the moves, Home/End jump; H hint, U undo; Escape drops a
 * premove or a move waiting for its confirmation. */
export function gameKeys(ev) {
  if (!G || !G.game) return false;
  if (ev.key === 'Escape' && (G.premove || G.pending)) {
    if (G.premove) setPremove(G.premove);
    else { G.pending = null; renderBoard(); }
    return true;
  }
  const g = G.game, cur = G.view === null ? g.ply : G.view;
  const to = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: g.ply }[ev.key];
  if (to !== undefined) { ev.preventDefault(); viewAt(Math.max(0, Math.min(g.ply, to))); return true; }
  if ((ev.key === 'h' || ev.key === 'H') && g.mode === 'ai' && myTurn()) { doHint(); return true; }
  if ((ev.key === 'u' || ev.key === 'U') && g.mode === 'ai' && canUndo()) { doUndo(); return true; }
  return false;
}

export const inGame = () => Boolean(G && G.game);
