// A player's profile (/@/NAME): ratings per category ("?" while provisional) and in puzzles, the rating
// history as a chart, results with each colour, the games being played now, and the games
// (filtered by result and colour), each opening its replay; for a signed-in reader, follow,
// block and report.
import { api } from '../api.js';
import { $, el, fill, svg, link } from '../dom.js';
import { t, variantName, dateText } from '../i18n.js';
import { resultLine } from './summary.js';

export async function profilePage(app, name) {
  document.title = name + ' — ' + t('web-title');
  app.replaceChildren(el('p', { class: 'muted' }, '…'));
  let p;
  try { p = await api('GET', '/api/users/' + encodeURIComponent(name)); } catch (e) {
    app.replaceChildren(el('div', { class: 'empty-state' }, el('h1', {}, t('web-no-such-player')), el('p', {}, e.message)));
    return;
  }
  const ratings = el('div', { class: 'ratings', id: 'ratings' });
  for (const r of p.ratings) {
    ratings.append(el('div', { class: 'rating-box', 'data-category': r.category },
      el('span', { class: 'cat' }, t('web-category-' + r.category)),
      el('strong', {}, String(r.rating) + (r.provisional ? '?' : '')),
      el('small', {}, t('web-rated-games', { n: r.games }))));
  }
  if (p.puzzle) {
    ratings.append(link('/puzzles', [
      el('span', { class: 'cat' }, t('web-category-puzzle')),
      el('strong', {}, String(p.puzzle.rating) + (p.puzzle.provisional ? '?' : '')),
      el('small', {}, t('web-puzzles-tried', { n: p.puzzle.attempts }))], { class: 'rating-box', 'data-category': 'puzzle', id: 'puzzle-rating-box' }));
  }
  if (!p.ratings.length && !p.puzzle) ratings.append(el('p', { class: 'muted' }, t('web-no-rated-games')));
  const res = c => p.results[c];
  const results = el('table', { class: 'results', id: 'colour-results' },
    el('thead', {}, el('tr', {}, el('th', {}), el('th', { scope: 'col' }, t('web-wins')), el('th', { scope: 'col' }, t('web-draws')), el('th', { scope: 'col' }, t('web-losses')))),
    el('tbody', {}, ...['black', 'white'].map(c => el('tr', {}, el('th', { scope: 'row' }, t('web-with-color', { color: c })),
      el('td', {}, String(res(c).wins)), el('td', {}, String(res(c).draws)), el('td', {}, String(res(c).losses))))));
  const playing = el('ul', { class: 'games', id: 'playing-now' });
  for (const g of p.playing) playing.append(el('li', {}, link('/game/' + g.id, [el('span', { class: 'g-players' }, line(g)), el('span', { class: 'g-result' }, t('web-playing-now'))], { class: 'game-item' })));
  const filters = el('div', { class: 'filters' },
    select('filter-result', [['', 'web-all-results'], ['win', 'web-wins'], ['loss', 'web-losses'], ['draw', 'web-draws']]),
    select('filter-colour', [['', 'web-both-colors'], ['black', 'web-with-black'], ['white', 'web-with-white']]));
  app.replaceChildren(el('div', { class: 'profile' },
    el('header', { class: 'profile-head' },
      el('h1', {}, el('span', { class: 'presence ' + (p.online ? 'here' : 'gone'), id: 'profile-online', title: t(p.online ? 'web-online' : 'web-offline-player'), 'aria-label': t(p.online ? 'web-online' : 'web-offline-player') }),
        p.name, p.bot ? el('span', { class: 'bot-tag' }, t('web-bot')) : null),
      el('p', { class: 'muted' }, t('web-member-since', { date: dateText(p.created_at / 1000) }), ' · ',
        el('span', { id: 'followers' }, t('web-followers', { n: p.followers }))),
      p.disabled ? el('p', { class: 'notice', id: 'profile-disabled' }, t('web-account-disabled')) : null,
      p.relation ? relationBar(p) : null),
    el('section', { class: 'card' }, el('h2', {}, t('web-ratings')), ratings, chart(p.history, p.created_at)),
    p.playing.length ? el('section', { class: 'card' }, el('h2', {}, t('web-playing-now')), playing) : null,
    el('section', { class: 'card' }, el('h2', {}, t('web-results-by-color')), results),
    el('section', { class: 'card' }, el('h2', {}, t('web-games')), filters, el('ul', { class: 'games', id: 'profile-games' }))));
  const load = () => games(p.name, $('#filter-result').value, $('#filter-colour').value);
  $('#filter-result').onchange = load;
  $('#filter-colour').onchange = load;
  load();
}

/** Follow, block and report, for a signed-in reader of another player's profile. */
function relationBar(p) {
  const rel = p.relation;
  const path = a => `/api/users/${encodeURIComponent(p.name)}/${a}`;
  const status = el('span', { class: 'muted', id: 'relation-status', role: 'status' });
  const toggle = async (what, on) => {
    try {
      await api(on ? 'POST' : 'DELETE', path(what));
      rel[what === 'follow' ? 'following' : 'blocking'] = on;
      if (what === 'follow') p.followers += on ? 1 : -1;
      if (what === 'block' && on && rel.following) { rel.following = false; p.followers -= 1; }
      draw();
      status.textContent = t('web-relation-' + what + (on ? '-done' : '-undone'), { name: p.name });
    } catch (e) { status.textContent = e.message; }
  };
  const bar = el('div', { class: 'relation-bar', id: 'relation-bar' });
  const draw = () => {
    $('#followers') && ($('#followers').textContent = t('web-followers', { n: p.followers }));
    fill(bar,
      rel.blocking ? null : el('button', { type: 'button', id: 'follow', class: rel.following ? null : 'primary', 'aria-pressed': String(rel.following), onclick: () => toggle('follow', !rel.following) },
        t(rel.following ? 'web-unfollow' : 'web-follow')),
      el('button', { type: 'button', id: 'block', 'aria-pressed': String(rel.blocking), onclick: () => toggle('block', !rel.blocking) },
        t(rel.blocking ? 'web-unblock' : 'web-block')),
      el('button', { type: 'button', id: 'report-open', 'aria-expanded': 'false', onclick: ev => {
        const f = $('#report-form');
        f.hidden = !f.hidden;
        ev.currentTarget.setAttribute('aria-expanded', String(!f.hidden));
        if (!f.hidden) $('#report-reason').focus();
      } }, t('web-report')),
      status, reportForm(p, status));
  };
  draw();
  return bar;
}

/** The report's form: why (a reason from the list), what happened, and the game it concerns. */
function reportForm(p, status) {
  const reason = el('select', { id: 'report-reason' },
    el('option', { value: '' }, t('web-report-choose')),
    ...['cheating', 'abuse', 'spam', 'name', 'other'].map(r => el('option', { value: r }, t('web-report-reason-' + r))));
  const text = el('textarea', { id: 'report-text', maxlength: '500', rows: '3', placeholder: t('web-report-text') });
  const game = el('input', { id: 'report-game', maxlength: '32', placeholder: t('web-report-game'), 'aria-label': t('web-report-game') });
  const form = el('form', { class: 'report-form card', id: 'report-form', hidden: true, onsubmit: async ev => {
    ev.preventDefault();
    try {
      const g = game.value.trim().replace(/^.*\/(game|replay)\//, '');
      await api('POST', `/api/users/${encodeURIComponent(p.name)}/report`, { reason: reason.value, text: text.value, game: g || null });
      form.hidden = true;
      $('#report-open')?.setAttribute('aria-expanded', 'false');
      text.value = '';
      game.value = '';
      status.textContent = t('web-report-sent');
    } catch (e) { status.textContent = e.message; }
  } },
  el('h2', {}, t('web-report-title', { name: p.name })),
  el('label', { class: 'option-row' }, el('span', { class: 'option-label' }, t('web-report-why')), reason),
  text, game,
  el('button', { type: 'submit', class: 'primary', id: 'report-send' }, t('web-report-send')));
  return form;
}

function select(id, options) {
  const s = el('select', { id, 'aria-label': t(options[0][1]) });
  for (const [v, k] of options) s.append(el('option', { value: v }, t(k)));
  return s;
}

const line = g => `● ${g.black_name ?? t('web-player-guest')} · ○ ${g.white_name ?? t('web-player-guest')}`;

async function games(name, result, colour) {
  const box = $('#profile-games');
  const q = new URLSearchParams({ limit: '50' });
  if (result) q.set('result', result);
  if (colour) q.set('colour', colour);
  try {
    const r = await api('GET', `/api/users/${encodeURIComponent(name)}/games?${q}`);
    box.replaceChildren();
    for (const g of r.games) {
      box.append(el('li', {}, link((g.status === 'playing' ? '/game/' : '/replay/') + g.id, [
        el('span', { class: 'g-variant' }, variantName(g.variant), g.rated ? ' · ' + t('web-rated') : ''),
        el('span', { class: 'g-players' }, line(g)),
        el('span', { class: 'g-result' }, resultLine(g)),
        el('span', { class: 'g-date' }, dateText(g.finished_at || g.updated_at)),
      ], { class: 'game-item' })));
    }
    if (!r.games.length) box.append(el('li', { class: 'muted' }, t('web-no-games-found')));
  } catch (e) { box.replaceChildren(el('li', { class: 'error' }, e.message)); }
}

/** The rating after each rated game, one line per category from the 1500 every account starts
 * with, as an SVG chart. */
function chart(played, since) {
  if (played.length < 1) return null;
  const cats = [...new Set(played.map(h => h.category))];
  const history = [...cats.map(category => ({ category, at: since, rating: 1500 })), ...played];
  const W = 640, H = 200, P = 32;
  const xs = history.map(h => h.at), ys = history.map(h => h.rating);
  const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1);
  const y0 = Math.floor((Math.min(...ys) - 20) / 50) * 50, y1 = Math.ceil((Math.max(...ys) + 20) / 50) * 50;
  const X = x => P + (W - 2 * P) * (x - x0) / (x1 - x0), Y = y => H - P - (H - 2 * P) * (y - y0) / (y1 - y0 || 1);
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', id: 'rating-chart', role: 'img', 'aria-label': t('web-rating-chart') });
  for (let y = y0; y <= y1; y += 50) {
    s.append(svg('line', { x1: P, x2: W - P, y1: Y(y), y2: Y(y), class: 'grid' }));
    const label = svg('text', { x: 2, y: Y(y) + 4, class: 'axis' });
    label.textContent = String(y);
    s.append(label);
  }
  const byCat = {};
  for (const h of history) (byCat[h.category] = byCat[h.category] || []).push(h);
  Object.entries(byCat).forEach(([cat, pts], i) => {
    const d = pts.map((h, k) => `${k ? 'L' : 'M'}${X(h.at).toFixed(1)},${Y(h.rating).toFixed(1)}`).join(' ');
    s.append(svg('path', { d, class: `series s${i % 4}`, 'data-category': cat }));
    for (const h of pts) s.append(svg('circle', { cx: X(h.at).toFixed(1), cy: Y(h.rating).toFixed(1), r: 3, class: `series-dot s${i % 4}` }));
  });
  return s;
}
