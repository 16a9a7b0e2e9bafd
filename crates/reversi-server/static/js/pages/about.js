// The page about the game (/about, issue 55): its history, Reversi and Othello, the variants,
// the world champions and computers. The words are the messages of
// crates/reversi-i18n/locales/about.LANG.ftl; the champions and the opening book's value of
// the start come from GET /api/about.
import { api } from '../api.js';
import { el, link } from '../dom.js';
import { t, has, lang } from '../i18n.js';

/** The sections in page order: `about-NAME` is the section's id and its messages' prefix. */
const SECTIONS = ['history', 'names', 'variants', 'champions', 'computers', 'sources'];

/** The champions table's columns: the field of /api/about and the message of its heading. */
const COLUMNS = [
  ['year', 'about-col-year'],
  ['place', 'about-col-place'],
  ['champion', 'about-col-champion'],
  ['country', 'about-col-country'],
  ['team', 'about-col-team'],
  ['runner_up', 'about-col-runner-up'],
  ['runner_up_country', 'about-col-country'],
];

/** The paragraphs `PREFIX-p1`, `PREFIX-p2`, … as long as the messages exist. */
function paragraphs(prefix) {
  const ps = [];
  for (let i = 1; has(`${prefix}-p${i}`); i++) ps.push(el('p', {}, t(`${prefix}-p${i}`)));
  return ps;
}

/** A table cell's text: a dash where the source gives nothing. */
const cellText = v => (v === null || v === undefined || v === '' || v === '-') ? '—' : String(v);

/** The world champions, one row a year, in a box that scrolls sideways on a narrow screen. */
function championsTable(rows) {
  const head = el('tr', {}, COLUMNS.map(([, id]) => el('th', { scope: 'col' }, t(id))));
  const body = el('tbody', {}, rows.map(r => el('tr', {}, COLUMNS.map(([field], i) =>
    i === 0 ? el('th', { scope: 'row' }, cellText(r[field])) : el('td', {}, cellText(r[field]))))));
  return el('div', { class: 'table-scroll table-wrap' },
    el('table', { class: 'champions', id: 'champions' },
      el('caption', {}, t('about-champions-title')),
      el('thead', {}, head),
      body));
}

/** A disc difference with its sign: +2, 0, −2. */
const signed = v => v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '0';

export async function aboutPage(app) {
  document.title = t('about-title') + ' — ' + t('web-title');
  const sections = {};
  for (const name of SECTIONS) {
    const id = `about-${name}`;
    sections[name] = el('section', { id, 'aria-labelledby': `${id}-title` },
      el('h2', { id: `${id}-title` }, t(`${id}-title`)),
      paragraphs(id));
  }
  // The table takes the place of this line once the champions are read (or the error does).
  const pending = el('p', { class: 'muted', id: 'champions-pending' }, '…');
  sections.champions.append(pending);
  sections.sources.append(el('p', { class: 'muted', id: 'about-trademark' }, t('about-trademark')));
  app.replaceChildren(
    el('h1', {}, t('about-title')),
    el('p', { class: 'lead' }, t('about-intro')),
    el('p', { class: 'about-links' }, link('/rules', t('web-nav-rules')), ' · ', link('/learn', t('web-nav-learn'))),
    ...SECTIONS.map(name => sections[name]));

  let d;
  try { d = await api('GET', '/api/about?lang=' + lang()); }
  catch (e) { pending.replaceWith(el('p', { class: 'error' }, e.message)); return; }
  pending.replaceWith(championsTable(Array.isArray(d.champions) ? d.champions : []));
  if (typeof d.book_value === 'number' && Number.isFinite(d.book_value)) {
    sections.computers.append(el('p', { id: 'about-book-value' }, t('about-book-value', { value: signed(d.book_value) })));
  }
}
