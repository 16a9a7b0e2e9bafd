// A player's profile (/@/NAME): ratings per category ("?" while provisional) and in puzzles, the rating
// history as a chart, results with each colour, the games being played now, and the games
// (filtered by result and colour) seen from the player — result mark, opponent and ratings,
// time control, rating change — each opening its replay; for a signed-in reader, follow, block
// and report.
import { api } from '../api.js';
import { $, el, fill, svg, link } from '../dom.js';
import { t, variantName, dateText, dayText } from '../i18n.js';
import { scoreText } from './summary.js';
import { controlText } from '../clock.js';
import { strengthText } from '../strength.js';
import { avatar, flag } from '../avatar.js';

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
  for (const g of p.playing) playing.append(gameRow(g));
  const filters = el('div', { class: 'filters' },
    select('filter-result', [['', 'web-all-results'], ['win', 'web-wins'], ['loss', 'web-losses'], ['draw', 'web-draws']]),
    select('filter-colour', [['', 'web-both-colors'], ['black', 'web-with-black'], ['white', 'web-with-white']]));
  app.replaceChildren(el('div', { class: 'profile' },
    el('header', { class: 'profile-head' },
      el('h1', {}, el('span', { class: 'presence ' + (p.online ? 'here' : 'gone'), id: 'profile-online', title: t(p.online ? 'web-online' : 'web-offline-player'), 'aria-label': t(p.online ? 'web-online' : 'web-offline-player') }),
        avatar(p.name, 'big'), p.name, flag(p.country), p.bot ? el('span', { class: 'bot-tag' }, t('web-bot')) : null),
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

/** A rating as shown beside a name: "1623", "1500?" while provisional. */
const ratingText = (r, provisional) => r == null ? '' : String(r) + (provisional ? '?' : '');

/** The other side of a listed game: the computer's strength, a name with its rating, or a guest. */
function opponentText(o) {
  if (o.level != null) return t('web-player-computer', { strength: strengthText(o.level) });
  const name = o.name ?? t('web-player-guest');
  return o.rating == null ? name : `${name} (${ratingText(o.rating, o.provisional)})`;
}

/** One game of the list, seen from the player: a result mark (+, −, =), the colour played and the
 * opponent, the variant, time control and whether rated, the score, the rating change, the date. */
function gameRow(g) {
  const mark = g.outcome ? { win: '+', loss: '−', draw: '=' }[g.outcome] : g.status === 'playing' ? '…' : '·';
  const markTitle = g.outcome ? t('web-outcome-' + g.outcome) : t('web-status-' + g.status);
  const facts = [variantName(g.variant), g.control ? controlText(g.control) : null, t(g.rated ? 'web-rated' : 'web-casual')].filter(Boolean).join(' · ');
  const diff = g.diff == null ? null
    : el('span', { class: 'diff ' + (g.diff > 0 ? 'up' : g.diff < 0 ? 'down' : 'even'), title: t('web-rating-change') }, g.diff > 0 ? '+' + g.diff : g.diff < 0 ? '−' + -g.diff : '±0');
  const score = g.status === 'finished' ? scoreText(g.black_count, g.white_count) : t('web-status-' + g.status);
  return el('li', { 'data-outcome': g.outcome ?? g.status }, link((g.status === 'playing' ? '/game/' : '/replay/') + g.id, [
    el('span', { class: 'g-mark ' + (g.outcome ?? ''), title: markTitle, 'aria-label': markTitle }, mark),
    el('span', { class: 'g-players' },
      el('span', { class: 'disc-mark ' + g.color, title: t('web-with-color', { color: g.color }), 'aria-label': t('web-with-color', { color: g.color }) }),
      t('web-versus', { name: opponentText(g.opponent) })),
    el('span', { class: 'g-result' }, score, diff ? ' ' : null, diff),
    el('span', { class: 'g-variant' }, facts),
    el('span', { class: 'g-date' }, dateText(g.at)),
  ], { class: 'game-item player-game' }));
}

async function games(name, result, colour) {
  const box = $('#profile-games');
  const q = new URLSearchParams({ limit: '50' });
  if (result) q.set('result', result);
  if (colour) q.set('colour', colour);
  try {
    const r = await api('GET', `/api/users/${encodeURIComponent(name)}/games?${q}`);
    box.replaceChildren(...r.games.map(gameRow));
    if (!r.games.length) box.append(el('li', { class: 'muted' }, t('web-no-games-found')));
  } catch (e) { box.replaceChildren(el('li', { class: 'error' }, e.message)); }
}

/** The rating after each rated game, one line per category from the 1500 every account starts
 * with, as an SVG chart: ratings up the side, dates along the bottom, a key of the categories. */
function chart(played, since) {
  if (played.length < 1) return null;
  const cats = [...new Set(played.map(h => h.category))];
  const history = [...cats.map(category => ({ category, at: since, rating: 1500 })), ...played];
  const W = 640, H = 220, P = 36, B = 44;
  const xs = history.map(h => h.at), ys = history.map(h => h.rating);
  const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1);
  const y0 = Math.floor((Math.min(...ys) - 20) / 50) * 50, y1 = Math.ceil((Math.max(...ys) + 20) / 50) * 50;
  const X = x => P + (W - 2 * P) * (x - x0) / (x1 - x0), Y = y => H - B - (H - P / 2 - B) * (y - y0) / (y1 - y0 || 1);
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', id: 'rating-chart', role: 'img', 'aria-label': t('web-rating-chart') });
  const text = (attrs, words) => { const e = svg('text', attrs); e.textContent = words; s.append(e); return e; };
  // At most six rating lines, on round numbers.
  const step = [50, 100, 200, 500].find(d => (y1 - y0) / d <= 6) ?? 1000;
  for (let y = Math.ceil(y0 / step) * step; y <= y1; y += step) {
    s.append(svg('line', { x1: P, x2: W - P, y1: Y(y), y2: Y(y), class: 'grid' }));
    text({ x: 2, y: Y(y) + 4, class: 'axis' }, String(y));
  }
  // Dates under the first and last points and at most two between, never closer than 120 px.
  const years = new Date(x0).getFullYear() !== new Date(x1).getFullYear();
  const day = ms => dayText(ms / 1000, years);
  const ticks = x1 - x0 < 86_400_000 ? [x0] : [0, 1 / 3, 2 / 3, 1].map(f => x0 + f * (x1 - x0));
  let last = -Infinity;
  ticks.forEach((at, i) => {
    if (X(at) - last < 120 && i !== ticks.length - 1) return;
    last = X(at);
    const anchor = i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle';
    text({ x: X(at).toFixed(1), y: H - B + 16, class: 'axis date', 'text-anchor': anchor }, day(at));
  });
  const byCat = {};
  for (const h of history) (byCat[h.category] = byCat[h.category] || []).push(h);
  let keyX = P;
  Object.entries(byCat).forEach(([cat, pts], i) => {
    const d = pts.map((h, k) => `${k ? 'L' : 'M'}${X(h.at).toFixed(1)},${Y(h.rating).toFixed(1)}`).join(' ');
    s.append(svg('path', { d, class: `series s${i % 4}`, 'data-category': cat }));
    for (const h of pts) s.append(svg('circle', { cx: X(h.at).toFixed(1), cy: Y(h.rating).toFixed(1), r: 3, class: `series-dot s${i % 4}` }));
    s.append(svg('rect', { x: keyX, y: H - 14, width: 12, height: 4, class: `key s${i % 4}` }));
    const name = t('web-category-' + cat);
    text({ x: keyX + 16, y: H - 9, class: 'axis key-name' }, name);
    keyX += 28 + 7 * name.length;
  });
  return s;
}
