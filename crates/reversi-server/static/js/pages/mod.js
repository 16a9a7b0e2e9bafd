// The moderators' desk (/mod): the open reports, the oldest first, each with what a moderator
// may do about it (mute, disable, close its game, close it without action), every action with
// a note; the closed reports; and the log of every action.
import { api } from '../api.js';
import { $, el, link } from '../dom.js';
import { t, dateText } from '../i18n.js';
import { me } from '../account.js';

let tab = 'open';

export async function modPage(app) {
  document.title = t('web-mod-title') + ' — ' + t('web-title');
  if (!me() || !me().moderator) {
    app.replaceChildren(el('div', { class: 'empty-state' }, el('h1', {}, t('web-mod-title')), el('p', {}, t('error-not-moderator'))));
    return;
  }
  const tabs = el('div', { class: 'tabs', role: 'tablist', id: 'mod-tabs' },
    ...[['open', 'web-mod-open'], ['closed', 'web-mod-closed'], ['log', 'web-mod-log']].map(([k, label]) =>
      el('button', { type: 'button', role: 'tab', id: 'mod-tab-' + k, 'aria-selected': String(k === tab), onclick: () => { tab = k; modPage(app); } }, t(label))));
  const body = el('div', { id: 'mod-body' }, el('p', { class: 'muted' }, '…'));
  app.replaceChildren(el('div', { class: 'mod-desk' },
    el('h1', {}, t('web-mod-title')), tabs, el('p', { class: 'muted', id: 'mod-status', role: 'status' }), body));
  try {
    if (tab === 'log') {
      const r = await api('GET', '/api/mod/log');
      body.replaceChildren(logTable(r.log));
    } else {
      const r = await api('GET', '/api/mod/reports' + (tab === 'closed' ? '?status=closed' : ''));
      body.replaceChildren(r.reports.length ? el('ul', { class: 'reports', id: 'reports' }, ...r.reports.map(x => reportItem(x, app)))
        : el('p', { class: 'muted', id: 'no-reports' }, t(tab === 'open' ? 'web-mod-none-open' : 'web-mod-none-closed')));
    }
  } catch (e) { body.replaceChildren(el('p', { class: 'error' }, e.message)); }
}

const profile = name => link('/@/' + encodeURIComponent(name), name);

/** One report: who, whom, why, the words, the game; and, while open, the actions. */
function reportItem(r, app) {
  const state = [r.target_disabled ? t('web-mod-disabled') : null,
    r.target_muted_until && r.target_muted_until > Date.now() ? t('web-mod-muted') : null].filter(Boolean).join(' · ');
  const head = el('div', { class: 'report-head' },
    el('strong', {}, t('web-report-reason-' + r.reason)), ' · ',
    t('web-mod-reported', { target: r.target, reporter: r.reporter }),
    el('span', { class: 'muted' }, ' · ', dateText(r.created_at / 1000)),
    r.open_on_target > 1 ? el('span', { class: 'badge' }, t('web-mod-open-on-target', { n: r.open_on_target })) : null,
    state ? el('span', { class: 'badge warn' }, state) : null);
  const li = el('li', { class: 'report card', 'data-report': String(r.id) }, head,
    el('p', { class: 'report-links' }, profile(r.target), r.game_id ? [' · ', link('/game/' + r.game_id, t('web-mod-game', { id: r.game_id }))] : null),
    r.text ? el('blockquote', { class: 'report-text' }, r.text) : null);
  if (r.closed_at) {
    li.append(el('p', { class: 'muted' }, t('web-mod-closed-by', { name: r.closed_by ?? '—', date: dateText(r.closed_at / 1000) }), ': ', r.resolution ?? ''));
    return li;
  }
  const note = el('input', { class: 'mod-note', maxlength: '500', placeholder: t('web-mod-note'), 'aria-label': t('web-mod-note') });
  const act = async (url, body) => {
    const status = $('#mod-status');
    if (!note.value.trim()) { status.textContent = t('web-mod-note-needed'); note.focus(); return; }
    try {
      await api('POST', url, Object.assign({ note: note.value, report: r.id }, body));
      status.textContent = t('web-mod-done');
      modPage(app);
    } catch (e) { status.textContent = e.message; }
  };
  const user = '/api/mod/users/' + encodeURIComponent(r.target);
  li.append(el('div', { class: 'mod-actions' }, note,
    el('button', { type: 'button', 'data-action': 'mute', onclick: () => act(user, { action: 'mute', hours: 24 }) }, t('web-mod-mute-day')),
    el('button', { type: 'button', 'data-action': 'disable', onclick: () => act(user, { action: 'disable' }) }, t('web-mod-disable')),
    r.game_id ? el('button', { type: 'button', 'data-action': 'close-game', onclick: () => act(`/api/mod/games/${encodeURIComponent(r.game_id)}/close`, {}) }, t('web-mod-close-game')) : null,
    el('button', { type: 'button', 'data-action': 'dismiss', onclick: () => act(`/api/mod/reports/${r.id}/close`, { report: undefined }) }, t('web-mod-dismiss'))));
  return li;
}

function logTable(lines) {
  if (!lines.length) return el('p', { class: 'muted' }, t('web-mod-log-empty'));
  return el('table', { class: 'mod-log', id: 'mod-log' },
    el('thead', {}, el('tr', {}, ...['web-mod-when', 'web-mod-who', 'web-mod-action', 'web-mod-target', 'web-mod-note'].map(k => el('th', { scope: 'col' }, t(k))))),
    el('tbody', {}, ...lines.map(l => el('tr', {},
      el('td', {}, dateText(l.at / 1000)),
      el('td', {}, l.moderator ?? t('web-mod-command-line')),
      el('td', {}, t('web-mod-action-' + l.action)),
      el('td', {}, l.target),
      el('td', {}, l.note)))));
}
