// How a player is drawn beside their name where there is no picture: their initials on a colour
// of their own (the same on every page and every device), and the flag of the country they
// named, with the country's name in the reader's language on hover.
import { el } from './dom.js';
import { lang } from './i18n.js';

/** Up to two letters of `name`: the first, and the first after a break (`_`, `-`, `.`, a digit
 * run, a capital after a small letter), in capitals. */
export function initials(name) {
  const parts = String(name).split(/[_\-.\s]+|(?<=\p{Ll})(?=\p{Lu})|(?<=\p{L})(?=\d)/u).filter(Boolean);
  const first = [...(parts[0] || '?')][0];
  const second = parts.length > 1 ? [...parts[1]][0] : '';
  return (first + second).toUpperCase();
}

/** A hue of the player's own, from their name (lower case: names differ only in case never). */
function hue(name) {
  let h = 2166136261;
  for (const ch of String(name).toLowerCase()) { h ^= ch.codePointAt(0); h = Math.imul(h, 16777619); }
  return (h >>> 0) % 360;
}

/** The initials disc of `name` (decorative: the name is written beside it). */
export function avatar(name, size = '') {
  return el('span', { class: 'avatar' + (size ? ' ' + size : ''), style: `--avatar-hue:${hue(name)}`, 'aria-hidden': 'true' }, initials(name));
}

let NAMES = null;

/** The name of the country `code` in the reader's language (the code itself where the browser
 * has no names). */
export function countryName(code) {
  try {
    if (!NAMES || NAMES.lang !== lang()) NAMES = { lang: lang(), names: new Intl.DisplayNames([lang()], { type: 'region' }) };
    return NAMES.names.of(code) || code;
  } catch { return code; }
}

/** The flag of country `code` (its regional-indicator pair), named for screen readers and on
 * hover; nothing for none. */
export function flag(code) {
  if (!code || !/^[A-Z]{2}$/.test(code)) return null;
  const pair = String.fromCodePoint(...[...code].map(c => 0x1f1e6 + c.charCodeAt(0) - 65));
  const name = countryName(code);
  return el('span', { class: 'flag', role: 'img', title: name, 'aria-label': name, 'data-country': code }, pair);
}
