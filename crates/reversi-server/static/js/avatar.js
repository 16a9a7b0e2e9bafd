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

let COLOUR_FLAGS = null;

/** Whether this device draws flags in colour (Windows, and a system without a colour emoji
 * font, draw the two letters' boxes instead): a flag drawn on a small canvas has coloured
 * pixels. */
function colourFlags() {
  if (COLOUR_FLAGS !== null) return COLOUR_FLAGS;
  COLOUR_FLAGS = false;
  try {
    const c = document.createElement('canvas');
    c.width = c.height = 20;
    const x = c.getContext('2d', { willReadFrequently: true });
    x.textBaseline = 'top';
    x.font = '16px sans-serif';
    x.fillText('\u{1F1EB}\u{1F1F7}', 0, 0);
    const d = x.getImageData(0, 0, 20, 20).data;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] > 100 && (Math.abs(d[i] - d[i + 1]) > 40 || Math.abs(d[i + 1] - d[i + 2]) > 40)) { COLOUR_FLAGS = true; break; }
    }
  } catch { /* no canvas: the letters */ }
  return COLOUR_FLAGS;
}

/** The flag of country `code` (its regional-indicator pair, or where the device cannot draw
 * flags the code in a small frame), named for screen readers and on hover; nothing for none. */
export function flag(code) {
  if (!code || !/^[A-Z]{2}$/.test(code)) return null;
  const name = countryName(code);
  const attrs = { role: 'img', title: name, 'aria-label': name, 'data-country': code };
  if (!colourFlags()) return el('span', Object.assign({ class: 'flag letters' }, attrs), code);
  const pair = String.fromCodePoint(...[...code].map(c => 0x1f1e6 + c.charCodeAt(0) - 65));
  return el('span', Object.assign({ class: 'flag' }, attrs), pair);
}
