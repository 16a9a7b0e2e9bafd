// The interface's words: the Fluent messages of crates/reversi-i18n/locales/LANG.ftl, fetched
// from /api/i18n/LANG and formatted in the browser by @fluent/bundle (vendor/fluent-bundle.js).
const Fluent = globalThis.FluentBundle;
let bundle = null;
let current = 'en';
/** The parts loaded into the bundle besides the main messages (`learn`, `about`). */
let parts = new Set();

/** Loads the messages of `lang` ('en' or 'ru'); the old ones stay if the server is away. */
export async function loadLang(lang) {
  const resp = await fetch(`/api/i18n/${lang}`);
  if (!resp.ok) throw new Error(`messages ${lang}: ${resp.status}`);
  const data = await resp.json();
  const b = new Fluent.FluentBundle(data.lang, { useIsolating: false });
  const errors = b.addResource(new Fluent.FluentResource(data.ftl));
  if (errors.length) console.warn('messages', errors);
  bundle = b;
  current = data.lang;
  document.documentElement.lang = current;
  const wanted = parts;
  parts = new Set();
  for (const p of wanted) await loadPart(p).catch(() => {});
}

/** Adds one more part of the messages (`learn`, `about`: pages that need long texts load
 * them with their module), once per language. */
export async function loadPart(part) {
  if (parts.has(part) || !bundle) return;
  const resp = await fetch(`/api/i18n/${current}/${part}`);
  if (!resp.ok) throw new Error(`messages ${current}/${part}: ${resp.status}`);
  const data = await resp.json();
  const errors = bundle.addResource(new Fluent.FluentResource(data.ftl));
  if (errors.length) console.warn('messages', part, errors);
  parts.add(part);
}

/** The message `id` with `args` (numbers and strings); the id itself if it is missing. */
export function t(id, args) {
  const m = bundle && bundle.getMessage(id);
  if (!m || !m.value) return id;
  return bundle.formatPattern(m.value, args);
}

/** Whether the message `id` exists. */
export const has = id => Boolean(bundle && bundle.hasMessage(id));

/** The language shown now. */
export const lang = () => current;

/** A colour's name ('black' or 'white'). */
export const colorName = c => t(c === 'black' ? 'color-black' : 'color-white');

/** The name of a variant preset as the server writes it (`othello`, `nxn:6`, `xot:17`, …). */
export function variantName(v) {
  const [family, arg] = v.split(':');
  switch (family) {
    case 'nxn': return t('variant-nxn', { n: Number(arg) });
    case 'nxn-parallel': return t('variant-nxn-parallel', { n: Number(arg) });
    case 'black-hole': return arg ? t('variant-black-hole-at', { square: arg }) : t('variant-black-hole');
    case 'xot': return arg ? t('variant-xot-line', { line: Number(arg) }) : t('variant-xot');
    case 'reversi-1880': return arg === 'white' ? t('variant-reversi-1880-white') : t('variant-reversi-1880');
    default: return has('variant-' + family) ? t('variant-' + family) : v;
  }
}

/** A day as an axis shows it: "7 Dec" (with the year when `withYear`). */
export function dayText(secs, withYear = false) {
  return new Date(secs * 1000).toLocaleDateString(current === 'ru' ? 'ru-RU' : 'en-GB',
    withYear ? { day: 'numeric', month: 'short', year: 'numeric' } : { day: 'numeric', month: 'short' });
}

/** A date and time in the interface's language. */
export function dateText(secs) {
  return new Date(secs * 1000).toLocaleString(current === 'ru' ? 'ru-RU' : 'en-GB',
    { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
