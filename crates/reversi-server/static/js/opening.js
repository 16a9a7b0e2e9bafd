// The named opening a game stands in at a ply, from the marks the server sends with a game
// (each ply at which it reached a named opening's position, any orientation).
import { lang } from './i18n.js';

/** An opening's name (`{en, ru}` from the server) in the page's language; '' for none. */
export const openingName = o => (o ? (lang() === 'ru' ? o.ru : o.en) : '');

/** The name (in the page's language) of the last opening reached at or before `ply`. */
export function openingAt(marks, ply) {
  let found = null;
  for (const m of marks || []) if (m.ply <= ply) found = m;
  return openingName(found);
}
