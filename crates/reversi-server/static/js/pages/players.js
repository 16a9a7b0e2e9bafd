// The leaderboards (/players): the best established players of each rated category
// (provisional players are not listed).
import { api } from '../api.js';
import { $, el, link } from '../dom.js';
import { t } from '../i18n.js';
import { META } from '../meta.js';

export const CATEGORIES = META.categories;

export function playersPage(app, category) {
  const cat = CATEGORIES.includes(category) ? category : 'blitz';
  document.title = t('web-leaderboard') + ' — ' + t('web-title');
  const tabs = el('nav', { class: 'tabs', 'aria-label': t('web-categories') });
  for (const c of CATEGORIES) tabs.append(link('/players/' + c, t('web-category-' + c), { 'aria-current': c === cat ? 'page' : null, 'data-category': c }));
  app.replaceChildren(el('div', { class: 'players' }, el('h1', {}, t('web-leaderboard')), tabs, el('div', { id: 'board-list' }, el('p', { class: 'muted' }, '…'))));
  fill(cat);
}

async function fill(cat) {
  const box = $('#board-list');
  try {
    const r = await api('GET', '/api/leaderboard/' + cat);
    if (!r.players.length) { box.replaceChildren(el('p', { class: 'muted' }, t('web-leaderboard-empty'))); return; }
    const body = el('tbody', {});
    r.players.forEach((p, i) => body.append(el('tr', {},
      el('td', {}, String(i + 1)),
      el('td', {}, link('/@/' + encodeURIComponent(p.name), p.name), p.bot ? el('span', { class: 'bot-tag' }, t('web-bot')) : null),
      el('td', {}, String(Math.round(p.rating))),
      el('td', {}, String(p.games)))));
    box.replaceChildren(el('table', { class: 'leaderboard' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, t('web-player')), el('th', { scope: 'col' }, t('web-rating')), el('th', { scope: 'col' }, t('web-games')))),
      body));
  } catch (e) { box.replaceChildren(el('p', { class: 'error' }, e.message)); }
}
