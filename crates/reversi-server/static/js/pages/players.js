// The leaderboards (/players): the best established players of each rated category, and apart
// those whose rating is still provisional.
import { api } from '../api.js';
import { $, el, link } from '../dom.js';
import { t } from '../i18n.js';
import { META } from '../meta.js';
import { avatar, flag } from '../avatar.js';

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
    const parts = [r.players.length ? table(r.players, false) : el('p', { class: 'muted' }, t('web-leaderboard-empty'))];
    if (r.provisional.length) {
      parts.push(el('section', { class: 'provisional-board', id: 'provisional-board' },
        el('h2', {}, t('web-leaderboard-provisional')),
        el('p', { class: 'muted' }, t('web-leaderboard-provisional-lead')),
        table(r.provisional, true)));
    }
    box.replaceChildren(...parts);
  } catch (e) { box.replaceChildren(el('p', { class: 'error' }, e.message)); }
}

/** The lines of a board; a provisional rating carries its "?". */
function table(players, provisional) {
  const body = el('tbody', {});
  players.forEach((p, i) => body.append(el('tr', {},
    el('td', {}, String(i + 1)),
    el('td', {}, avatar(p.name), link('/@/' + encodeURIComponent(p.name), p.name), flag(p.country), p.bot ? el('span', { class: 'bot-tag' }, t('web-bot')) : null),
    el('td', {}, String(p.rating) + (provisional ? '?' : '')),
    el('td', {}, String(p.games)))));
  return el('table', { class: 'leaderboard' + (provisional ? ' provisional' : '') },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, t('web-player')), el('th', { scope: 'col' }, t('web-rating')), el('th', { scope: 'col' }, t('web-games')))),
    body);
}
