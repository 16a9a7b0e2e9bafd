// The rules of every variant (/rules/VARIANT), with its start position.
import { api } from '../api.js';
import { drawBoard } from '../board.js';
import { el, go, link } from '../dom.js';
import { t, variantName, lang } from '../i18n.js';
import { VARIANTS } from './home.js';

export async function rulesPage(app, variant) {
  const select = el('select', { id: 'rules-variant', onchange: () => go('/rules/' + select.value) });
  for (const v of VARIANTS) select.append(el('option', { value: v }, variantName(v)));
  if (!VARIANTS.includes(variant)) select.append(el('option', { value: variant }, variantName(variant)));
  select.value = variant;
  const head = [el('h1', {}, t('web-rules')), el('p', {}, el('label', {}, t('web-variant') + ' ', select))];
  app.replaceChildren(...head, el('p', { class: 'muted' }, '…'));
  let r;
  try { r = await api('GET', `/api/rules/${encodeURIComponent(variant)}?lang=${lang()}`); }
  catch (e) { app.replaceChildren(...head, el('p', { class: 'error' }, e.message)); return; }
  const family = variant.split(':')[0];
  const text = el('div', { class: 'rules-text', id: 'rules-text' }, el('h2', { id: 'rules-title' }, r.title));
  if (r.example_of) text.append(el('p', { class: 'notice', id: 'rules-example' }, t(family === 'xot' ? 'web-rules-example-opening' : 'web-rules-example-hole')));
  for (const p of r.paragraphs) text.append(el('p', {}, p));
  const figure = el('figure', { class: 'rules-board' },
    drawBoard({ width: r.width, height: r.height, cells: r.cells, flipped: [] }, { label: t('web-start-position') }),
    el('figcaption', {}, t('web-start-position')));
  app.replaceChildren(...head, el('div', { class: 'rules-page' }, figure, text),
    el('p', {}, link('/', t('web-new-game'), { class: 'button primary' })));
}
