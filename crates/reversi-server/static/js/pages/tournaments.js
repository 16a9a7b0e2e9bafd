// Tournaments: the list (/tournaments: upcoming, running, finished, and a form to make one)
// and a tournament's page (/tournament/ID: standings, the current round's games, the
// crosstable, each round, chat). Both follow the server through their live socket
// (/api/tournaments/ws, /api/tournaments/ID/ws); a player whose next game starts is taken to it.
import { api } from '../api.js';
import { $, el, go, link, button, fill, icon } from '../dom.js';
import { liveSocket } from '../live.js';
import { t, variantName } from '../i18n.js';
import { me } from '../account.js';
import { rememberGame } from '../prefs.js';
import { META } from '../meta.js';

const CONTROLS = META.live_controls;
const VARIANTS = META.online_variants;

let T = null;

export function stopTournaments() {
  if (T && T.live) T.live.close();
  if (T && T.countdown) clearInterval(T.countdown);
  T = null;
}

/** The time left before `at` (ms): "4:07", "1 h 05 min", "3 days". */
function timeLeft(at) {
  const s = Math.max(0, Math.ceil((at - Date.now()) / 1000));
  if (s >= 2 * 86_400) return t('web-control-days', { n: Math.floor(s / 86_400) });
  if (s >= 3600) return t('web-t-hours-minutes', { h: Math.floor(s / 3600), m: String(Math.floor(s / 60) % 60).padStart(2, '0') });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A point total with a half as ½. */
export function half(p) {
  const whole = Math.floor(p);
  const frac = p - whole;
  if (Math.abs(frac) < 1e-9) return String(whole);
  return whole === 0 ? '½' : whole + '½';
}

function when(ms) {
  return new Date(ms).toLocaleString(document.documentElement.lang || undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "Swiss · 5 rounds", "Arena · 60 min", "Double round robin". */
function formatText(x) {
  if (x.format === 'swiss') return t('web-t-swiss-rounds', { n: x.size });
  if (x.format === 'arena') return t('web-t-arena-minutes', { n: x.size });
  return t(x.size === 2 ? 'web-t-double-round-robin' : 'web-t-round-robin');
}

export function tournamentsPage(app) {
  stopTournaments();
  const s = T = { live: null, kind: 'list' };
  document.title = t('web-tournaments') + ' — ' + t('web-title');
  app.replaceChildren(el('div', { class: 'tournaments' },
    el('section', { class: 'card' }, el('h1', {}, t('web-tournaments')),
      el('div', { id: 't-lists' }, el('p', { class: 'muted' }, '…'))),
    el('section', { class: 'card' }, el('h2', {}, t('web-t-create')),
      me() ? createForm() : el('p', { class: 'muted' }, link('/login', t('web-sign-in')), ' — ', t('web-t-sign-in-to-create')),
      el('p', { class: 'error', id: 't-error', role: 'alert' }))));
  s.live = liveSocket('/api/tournaments/ws', msg => {
    if (T !== s) return;
    if (msg.type === 'tournaments') { showList(msg.tournaments); $('#t-error').textContent = ''; }
    else if (msg.type === 'error') $('#t-error').textContent = msg.error;
  });
}

function showList(r) {
  const lists = [];
  for (const k of ['running', 'upcoming', 'finished']) {
    lists.push(el('h2', {}, t('web-t-' + k)));
    if (!r[k].length) { lists.push(el('p', { class: 'muted', 'data-empty': k }, t('web-t-none'))); continue; }
    const body = el('tbody', {});
    for (const x of r[k]) {
      body.append(el('tr', { 'data-tournament': x.id },
        el('td', {}, link('/tournament/' + x.id, x.name), x.invite_only ? el('span', { class: 'bot-tag' }, t('web-t-private')) : null),
        el('td', {}, formatText(x)),
        el('td', {}, x.control, ' · ', variantName(x.variant), x.rated ? '' : ' · ' + t('web-casual')),
        el('td', {}, t('web-t-players', { n: x.players })),
        el('td', {}, k === 'finished' ? when(x.finished_at || x.starts_at) : k === 'running' ? t('web-t-status-' + x.status) : when(x.starts_at))));
    }
    lists.push(el('table', { class: 'results t-list', id: 't-' + k }, body));
  }
  $('#t-lists').replaceChildren(...lists);
}

function createForm() {
  const name = el('input', { id: 't-name', maxlength: 60, required: true, value: t('web-t-default-name', { name: me().name }) });
  const format = el('select', { id: 't-format' });
  for (const f of ['swiss', 'round_robin', 'arena']) format.append(el('option', { value: f }, t('web-t-format-' + f)));
  const size = el('input', { id: 't-size', type: 'number', min: 1, max: 15, value: 5 });
  const sizeLabel = el('span', {}, t('web-t-rounds'));
  format.onchange = () => {
    const f = format.value;
    sizeLabel.textContent = t(f === 'swiss' ? 'web-t-rounds' : f === 'arena' ? 'web-t-minutes' : 'web-t-cycles');
    Object.assign(size, f === 'swiss' ? { min: 1, max: 15, value: 5 } : f === 'arena' ? { min: 5, max: 360, value: 45 } : { min: 1, max: 2, value: 1 });
  };
  const variant = el('select', { id: 't-variant' });
  for (const v of VARIANTS) variant.append(el('option', { value: v }, variantName(v)));
  const control = el('select', { id: 't-control' });
  for (const c of CONTROLS) control.append(el('option', { value: c }, c));
  control.value = '3+2';
  const starts = el('input', { id: 't-starts', type: 'number', min: 0, max: 43200, value: 5 });
  const rated = el('input', { type: 'checkbox', id: 't-rated', checked: true });
  const bots = el('input', { type: 'checkbox', id: 't-bots' });
  const invite = el('input', { type: 'checkbox', id: 't-invite' });
  const minRating = el('input', { id: 't-min-rating', type: 'number', min: 0, max: 3200, placeholder: '—' });
  return el('form', { class: 'seek-form', id: 't-form', onsubmit: async ev => {
    ev.preventDefault();
    const f = format.value;
    const body = { name: name.value, format: f, control: control.value, variant: variant.value, rated: rated.checked,
      bots: bots.checked, invite_only: invite.checked, starts_in_minutes: Number(starts.value) };
    body[f === 'swiss' ? 'rounds' : f === 'arena' ? 'minutes' : 'cycles'] = Number(size.value);
    if (minRating.value) body.min_rating = Number(minRating.value);
    try {
      const r = await api('POST', '/api/tournaments', body);
      go('/tournament/' + r.id + (r.invite ? '?invite=' + encodeURIComponent(r.invite) : ''));
    } catch (e) { $('#t-error').textContent = e.message; }
  } },
  el('label', {}, el('span', {}, t('web-t-name')), name),
  el('label', {}, el('span', {}, t('web-t-format')), format),
  el('label', {}, sizeLabel, size),
  el('label', {}, el('span', {}, t('web-variant')), variant),
  el('label', {}, el('span', {}, t('web-time-control')), control),
  el('label', {}, el('span', {}, t('web-t-starts-in')), starts),
  el('label', {}, el('span', {}, t('web-t-min-rating')), minRating),
  el('label', { class: 'check' }, rated, el('span', {}, t('web-rated'))),
  el('label', { class: 'check' }, bots, el('span', {}, t('web-t-allow-bots'))),
  el('label', { class: 'check' }, invite, el('span', {}, t('web-t-invite-only'))),
  button(t('web-t-create-button'), { type: 'submit', id: 't-create', class: 'primary' }, 'plus'));
}

export function tournamentPage(app, id) {
  stopTournaments();
  const invite = new URLSearchParams(location.search).get('invite');
  // The invitation secret goes with every read of an invitation-only tournament.
  const query = invite ? '?invite=' + encodeURIComponent(invite) : '';
  const s = T = { live: null, kind: 'one', id, invite, query, seenGame: sessionStorage.getItem('t-game-' + id) };
  // The countdown to the start (and an arena's end) moves every second between the pushes.
  s.countdown = setInterval(() => {
    const line = $('#t-status');
    if (T === s && line && s.last) line.textContent = statusLine(s.last);
  }, 1000);
  document.title = t('web-tournament') + ' — ' + t('web-title');
  app.replaceChildren(el('div', { class: 'tournament', id: 'tournament' }, el('p', { class: 'muted' }, '…')));
  loadOne().then(v => {
    if (T !== s || !v || ['finished', 'cancelled'].includes(v.status)) return;
    s.live = liveSocket(`/api/tournaments/${id}/ws${query}`, msg => {
      if (T !== s) return;
      if (msg.type === 'tournament') show(s, msg.tournament);
      else if (msg.type === 'error') showError(msg.error);
    });
  });
}

/** Reads the tournament once (on opening the page and after the visitor's own actions). */
async function loadOne() {
  const s = T;
  if (!s) return null;
  try {
    const v = await api('GET', `/api/tournaments/${s.id}${s.query}`);
    if (T === s) show(s, v);
    return v;
  } catch (e) {
    if (T === s) showError(e.message);
    return null;
  }
}

/** An error: in place of the page if it never loaded, under its head otherwise. */
function showError(message) {
  const box = $('#tournament');
  if (box && !box.dataset.loaded) box.replaceChildren(el('p', { class: 'error' }, message));
  else if ($('#t-page-error')) $('#t-page-error').textContent = message;
}

function show(s, v) {
  // A new game of mine: go to it (once; coming back here does not send me there again).
  if (v.me.game && v.me.game !== s.seenGame) {
    s.seenGame = v.me.game;
    sessionStorage.setItem('t-game-' + s.id, v.me.game);
    rememberGame(v.me.game);
    go('/game/' + v.me.game);
    return;
  }
  // Redrawn only when something changed (the open rounds and the chat draft stay put).
  const sig = JSON.stringify(Object.assign({}, v, { now: 0 }));
  if (sig !== s.sig) { s.sig = sig; render(v); }
  if (['finished', 'cancelled'].includes(v.status) && s.live) { s.live.close(); s.live = null; }
}

function render(v) {
  T.last = v;
  const box = $('#tournament');
  const chatInput = $('#t-chat-input');
  const draft = chatInput ? chatInput.value : '';
  const focused = document.activeElement && document.activeElement.id === 't-chat-input';
  document.title = v.name + ' — ' + t('web-title');
  box.dataset.loaded = '1';
  box.dataset.status = v.status;
  box.dataset.round = v.round;
  fill(box,
    el('section', { class: 'card t-head' }, el('h1', { id: 't-title' }, v.name),
      el('p', { class: 'muted' }, [formatText(v), `${v.control} · ${t('web-speed-' + v.speed)}`, variantName(v.variant),
        v.rated ? t('web-rated') : t('web-casual'), v.organiser ? t('web-t-by', { name: v.organiser }) : null].filter(Boolean).join(' · ')),
      el('p', { id: 't-status', class: 't-status', role: 'status' }, statusLine(v)),
      actions(v),
      el('p', { class: 'error', id: 't-page-error', role: 'alert' })),
    v.status === 'finished' ? podium(v) : null,
    el('div', { class: 't-grid' },
      el('section', { class: 'card' }, el('h2', {}, t('web-t-standings')), standings(v)),
      el('section', { class: 'card' }, el('h2', {}, v.format === 'arena' ? t('web-t-recent-games') : v.round > 0 ? t('web-t-round-games', { n: v.round }) : t('web-t-pairings')), currentGames(v),
        chat(v))),
    v.crosstable && v.crosstable.length ? el('section', { class: 'card' }, el('h2', {}, t('web-t-crosstable')), crosstable(v)) : null,
    T.player ? playerGames(v, T.player) : null,
    v.format !== 'arena' && v.rounds_played.length > 1 ? el('section', { class: 'card' }, el('h2', {}, t('web-t-all-rounds')), allRounds(v)) : null);
  const input = $('#t-chat-input');
  if (input) { input.value = draft; if (focused) input.focus(); }
}

function statusLine(v) {
  if (v.status === 'upcoming') return t('web-t-starts-countdown', { left: timeLeft(v.starts_at), when: when(v.starts_at) });
  if (v.status === 'running' || v.status === 'paused') {
    const base = v.format === 'arena' ? t('web-t-ends-countdown', { left: timeLeft(v.ends_at), when: when(v.ends_at) })
      : t('web-t-round-of', { n: v.round, total: v.rounds ?? v.size });
    return v.status === 'paused' ? base + ' · ' + t('web-t-status-paused') : base;
  }
  return t('web-t-status-' + v.status);
}

function act(path, body = {}) {
  return async () => {
    try { await api('POST', `/api/tournaments/${T.id}/${path}`, body); $('#t-page-error').textContent = ''; loadOne(); }
    catch (e) { $('#t-page-error').textContent = e.message; }
  };
}

function actions(v) {
  const m = v.me;
  const b = [];
  const open = ['upcoming', 'running', 'paused'].includes(v.status);
  if (open && m.entered && m.active) b.push(button(t('web-t-withdraw'), { id: 't-withdraw', onclick: act('withdraw') }, 'x'));
  if (open && !(m.entered && m.active)) {
    if (!m.signed_in) b.push(link('/login', t('web-t-sign-in-to-join'), { class: 'button', id: 't-login' }));
    else if (!m.join_error || (m.entered && !m.removed)) b.push(button(t(m.entered ? 'web-t-rejoin' : 'web-t-join'), { id: 't-join', class: 'primary', onclick: act('join', T.invite ? { invite: T.invite } : {}) }, 'plus'));
    else b.push(el('span', { class: 'muted', id: 't-cannot-join' }, t('error-' + m.join_error.replace(/_/g, '-'))));
  }
  if (m.game) b.push(link('/game/' + m.game, t('web-t-your-game'), { class: 'button primary', id: 't-my-game' }));
  if (m.organiser && v.status === 'upcoming') b.push(button(t('web-t-start-now'), { id: 't-start', class: 'primary', onclick: act('start') }, 'play'));
  if (m.organiser && open) {
    if (v.status === 'running') b.push(button(t('web-t-pause'), { id: 't-pause', onclick: act('pause') }));
    if (v.status === 'paused') b.push(button(t('web-t-resume'), { id: 't-resume', onclick: act('resume') }));
    b.push(button(t('web-t-cancel'), { id: 't-cancel', class: 'danger', onclick: () => { if (confirm(t('web-t-cancel-confirm'))) act('cancel')(); } }));
  }
  if (m.organiser && m.invite) {
    const url = `${location.origin}/tournament/${v.id}?invite=${encodeURIComponent(m.invite)}`;
    b.push(el('label', { class: 't-invite' }, el('span', {}, t('web-t-invite-link')), el('input', { readonly: true, value: url, id: 't-invite-url', onclick: ev => ev.target.select() })));
  }
  if (v.status === 'finished' && !v.invite_only) {
    for (const [file, label] of [['crosstable.html', 'HTML'], ['crosstable.md', 'Markdown'], ['games.ggf', 'GGF']]) {
      b.push(el('a', { class: 'button small', href: `/api/tournaments/${v.id}/files/${file}`, download: '' }, t('web-t-download', { what: label })));
    }
  }
  return el('div', { class: 'actions t-actions' }, ...b);
}

/** A finished tournament's first three (the standings' order: points, then the tie-breaks). */
function podium(v) {
  const top = v.standings.slice(0, 3);
  if (!top.length) return null;
  const points = s => v.format === 'arena' ? String(s.points) : half(s.points);
  return el('section', { class: 'card t-podium', id: 't-podium', 'aria-label': t('web-t-podium') },
    el('h2', {}, t('web-t-winner', { name: top[0].name })),
    el('ol', { class: 'podium' }, ...top.map((s, i) => el('li', { class: 'place p' + (i + 1) },
      el('span', { class: 'place-n' }, String(i + 1)),
      link('/@/' + encodeURIComponent(s.name), s.name, { class: 'place-name' }),
      el('span', { class: 'place-points' }, t('web-t-points-n', { points: points(s) }))))));
}

function standings(v) {
  if (!v.standings.length) return el('p', { class: 'muted' }, t('web-t-no-players'));
  const arena = v.format === 'arena';
  const body = el('tbody', {});
  for (const s of v.standings) {
    body.append(el('tr', { class: s.active ? null : 'withdrawn', 'data-player': s.name },
      el('td', {}, String(s.rank)),
      el('td', { class: 't-name' }, link('/@/' + encodeURIComponent(s.name), s.name), s.bot ? el('span', { class: 'bot-tag' }, t('web-bot')) : null,
        s.fire ? el('span', { class: 'fire', title: t('web-t-on-fire'), role: 'img', 'aria-label': t('web-t-on-fire') }, icon('fire')) : null,
        s.active ? null : el('small', { class: 'muted' }, ' ' + t('web-t-withdrawn')),
        v.me.organiser && s.active && ['upcoming', 'running', 'paused'].includes(v.status)
          ? button(t('web-t-remove'), { class: 'small linkish t-remove', 'aria-label': t('web-t-remove') + ' ' + s.name,
            onclick: () => { if (confirm(t('web-t-remove-confirm', { name: s.name }))) act('remove', { name: s.name })(); } }) : null),
      el('td', { class: 'num' }, String(s.rating)),
      el('td', { class: 'num strong' }, arena ? String(s.points) : half(s.points)),
      // The games' count opens the player's games (it says what it is: the column's head).
      el('td', { class: 'num' }, s.games ? el('button', { type: 'button', class: 'linkish t-player-games', 'data-games-of': s.name,
        title: t('web-t-games-of', { name: s.name }), 'aria-label': t('web-t-games-of', { name: s.name }), 'aria-pressed': String(T.player === s.name),
        onclick: () => { T.player = T.player === s.name ? null : s.name; render(T.last); } }, String(s.games)) : '0'),
      el('td', { class: 'num' }, String(Math.round(s.bq))),
      el('td', { class: 'num' }, String(s.discs))));
  }
  return el('div', { class: 'scroll' }, el('table', { class: 'results standings', id: 't-standings' },
    el('thead', {}, el('tr', {}, ...['#', t('web-player'), t('web-rating'), t('web-t-points'), t('web-games'), t('web-t-bq'), t('web-t-discs')]
      .map(h => el('th', { scope: 'col' }, h)))), body));
}

function gameRow(g, number = g.board) {
  const result = g.status === 'playing' ? t('web-t-playing')
    : g.status !== 'finished' ? t('web-t-status-' + g.status)
      : `${g.black_discs}–${g.white_discs}` + (g.forfeit ? ' ' + t('web-t-forfeit') : '');
  const mark = g.status === 'finished' ? (g.winner === 'black' ? ['1', '0'] : g.winner === 'white' ? ['0', '1'] : ['½', '½']) : ['', ''];
  return el('tr', { 'data-game': g.game },
    el('td', {}, String(number)),
    el('td', {}, '● ', g.black, mark[0] ? el('strong', {}, ' ' + mark[0]) : null),
    el('td', {}, '○ ', g.white, mark[1] ? el('strong', {}, ' ' + mark[1]) : null),
    el('td', {}, link('/game/' + g.game, result, { class: 't-game-link' })));
}

function currentGames(v) {
  const rounds = v.format === 'arena' ? v.rounds_played.slice(0, 10) : v.rounds_played.filter(r => r.round === v.round);
  // An arena's games are numbered in the order they began (each pairing's boards restart at 1).
  const total = v.format === 'arena' ? v.rounds_played.reduce((n, r) => n + r.games.length, 0) : 0;
  let k = 0;
  const rows = rounds.flatMap(r => r.games.map(g => gameRow(g, v.format === 'arena' ? total - k++ : g.board)));
  const byes = rounds.flatMap(r => r.byes);
  if (!rows.length && !byes.length) return el('p', { class: 'muted' }, v.status === 'upcoming' ? t('web-t-not-started') : t('web-t-no-games'));
  return el('div', {},
    rows.length ? el('table', { class: 'results', id: 't-games' }, el('tbody', {}, ...rows)) : null,
    byes.length ? el('p', { class: 'muted', id: 't-byes' }, t('web-t-bye', { names: byes.join(', ') })) : null);
}

/** One player's games in the tournament (an arena's page holds its latest games only). */
function playerGames(v, name) {
  const rows = [];
  for (const r of v.rounds_played) {
    for (const g of r.games) {
      if (g.black !== name && g.white !== name) continue;
      const black = g.black === name;
      const mine = g.status !== 'finished' ? '' : g.winner === null ? '½' : (g.winner === 'black') === black ? '1' : '0';
      const result = g.status === 'playing' ? t('web-t-playing') : `${g.black_discs}–${g.white_discs}` + (g.forfeit ? ' ' + t('web-t-forfeit') : '');
      rows.push(el('tr', { 'data-game': g.game },
        el('td', {}, t('web-t-round', { n: r.round })),
        el('td', {}, black ? '●' : '○'),
        el('td', {}, black ? g.white : g.black),
        el('td', { class: 'num strong' }, mine),
        el('td', {}, link('/game/' + g.game, result, { class: 't-game-link' }))));
    }
    if (r.byes.includes(name)) rows.push(el('tr', {}, el('td', {}, t('web-t-round', { n: r.round })), el('td', { colspan: 4, class: 'muted' }, t('web-t-bye', { names: name }))));
  }
  return el('section', { class: 'card', id: 't-player-games' },
    el('h2', {}, t('web-t-games-of', { name }), ' ', button('×', { class: 'small', 'aria-label': t('web-close'), onclick: () => { T.player = null; render(T.last); } })),
    rows.length ? el('table', { class: 'results' }, el('tbody', {}, ...rows)) : el('p', { class: 'muted' }, t('web-t-no-games')));
}

function allRounds(v) {
  return el('div', { class: 't-rounds' }, ...v.rounds_played.map(r => el('details', { open: r.round === v.round },
    el('summary', {}, t('web-t-round', { n: r.round })),
    el('table', { class: 'results' }, el('tbody', {}, ...r.games.map(g => gameRow(g)))),
    r.byes.length ? el('p', { class: 'muted' }, t('web-t-bye', { names: r.byes.join(', ') })) : null)));
}

function crosstable(v) {
  const n = v.crosstable.length;
  const head = el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, t('web-player')),
    ...Array.from({ length: n }, (_, i) => el('th', { scope: 'col', class: 'num' }, String(i + 1))),
    el('th', { scope: 'col', class: 'num' }, t('web-t-points')));
  const body = el('tbody', {});
  v.crosstable.forEach((row, i) => {
    const s = v.standings[i];
    body.append(el('tr', {}, el('td', {}, String(i + 1)), el('th', { scope: 'row' }, row.name),
      ...row.cells.map((c, j) => el('td', { class: 'num cell' + (i === j ? ' self' : '') },
        i === j ? '—' : c ? [el('strong', {}, half(c.points) + (c.games > 1 ? '/' + c.games : '')), el('small', {}, ` ${c.discs}–${c.opp_discs}`)] : '')),
      el('td', { class: 'num strong' }, s ? half(s.points) : '')));
  });
  return el('div', { class: 'scroll' }, el('table', { class: 'results crosstable', id: 't-crosstable' }, el('thead', {}, head), body),
    el('p', { class: 'muted small' }, t('web-t-crosstable-note')));
}

function chat(v) {
  const lines = el('ol', { class: 'chat-lines', id: 't-chat-lines', 'aria-live': 'polite' },
    ...v.chat.map(l => el('li', {}, el('strong', {}, (l.author ?? t('web-player-deleted')) + ': '), el('span', {}, l.text))));
  setTimeout(() => { lines.scrollTop = lines.scrollHeight; }, 0);
  if (!v.me.signed_in) return el('section', { class: 'chat', 'aria-label': t('web-chat') }, el('h2', {}, t('web-chat')), lines);
  const input = el('input', { id: 't-chat-input', maxlength: 140, autocomplete: 'off', 'aria-label': t('web-chat-say') });
  return el('section', { class: 'chat', id: 't-chat', 'aria-label': t('web-chat') }, el('h2', {}, t('web-chat')), lines,
    el('form', { class: 'chat-form', onsubmit: async ev => {
      ev.preventDefault();
      if (!input.value.trim()) return;
      try { await api('POST', `/api/tournaments/${T.id}/chat`, { text: input.value }); input.value = ''; loadOne(); }
      catch (e) { $('#t-page-error').textContent = e.message; }
    } }, input, button(t('web-chat-send'), { type: 'submit', id: 't-chat-send', class: 'small' })));
}
