// The archive (/archive): finished games, newest first, a page at a time.
import { api } from '../api.js';
import { el, link } from '../dom.js';
import { t, variantName, dateText } from '../i18n.js';
import { playerName, resultLine } from './summary.js';

const PAGE = 20;

export async function archivePage(app) {
  const page = Math.max(0, Number(new URLSearchParams(location.search).get('page')) || 0);
  const head = el('h1', {}, t('web-archive-title'));
  app.replaceChildren(head, el('p', { class: 'muted' }, '…'));
  let r;
  try { r = await api('GET', `/api/games?status=finished&offset=${page * PAGE}&limit=${PAGE}`); }
  catch (e) { app.replaceChildren(head, el('p', { class: 'error' }, e.message)); return; }
  app.replaceChildren(head);
  if (!r.games.length) { app.append(el('p', { id: 'archive-empty', class: 'empty-state' }, t('web-archive-empty'))); if (page === 0) return; }
  const cols = ['date', 'variant', 'players', 'result', 'moves', 'analysis'];
  const thead = el('tr', {}, cols.map(k => el('th', { scope: 'col', class: 'col-' + k }, t('web-col-' + k))));
  const body = el('tbody', {});
  for (const g of r.games) {
    body.append(el('tr', { class: 'archive-row', 'data-id': g.id },
      el('td', { class: 'col-date' }, link('/replay/' + g.id, dateText(g.finished_at || g.updated_at), { class: 'replay-link' })),
      el('td', { class: 'col-variant' }, variantName(g.variant)),
      el('td', { class: 'col-players' }, `● ${playerName(g.black, g.level)}`, el('br'), `○ ${playerName(g.white, g.level)}`),
      el('td', { class: 'col-result' }, resultLine(g)),
      el('td', { class: 'col-moves num' }, String(g.move_count)),
      el('td', { class: 'col-analysis' }, t('web-analysis-state-' + g.analysis))));
  }
  if (r.games.length) app.append(el('div', { class: 'table-wrap' }, el('table', { class: 'archive', id: 'archive' }, el('thead', {}, thead), body)));
  const nav = el('nav', { class: 'pager', 'aria-label': t('web-archive-title') });
  if (page > 0) nav.append(link(`/archive?page=${page - 1}`, t('web-newer'), { id: 'newer', class: 'button' }));
  if (r.games.length) nav.append(el('span', {}, t('web-page-of', { first: r.offset + 1, last: r.offset + r.games.length, total: r.total })));
  if (r.offset + r.games.length < r.total) nav.append(link(`/archive?page=${page + 1}`, t('web-older'), { id: 'older', class: 'button' }));
  app.append(nav);
}
