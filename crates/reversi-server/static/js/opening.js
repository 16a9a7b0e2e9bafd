// The named opening a game stands in at a ply, from the marks the server sends with a game
// (each ply at which it reached a named opening's position, any orientation).
import { lang } from './i18n.js';

/** The analysis board's address for a game's moves, standing at `ply`. */
export function analysisUrl(variant, moves, ply) {
  const q = new URLSearchParams({ variant });
  if (moves.length) q.set('moves', moves.join(''));
  q.set('ply', String(ply));
  return '/analysis?' + q;
}

/** The name (in the page's language) of the last opening reached at or before `ply`. */
export function openingAt(marks, ply) {
  let found = null;
  for (const m of marks || []) if (m.ply <= ply) found = m;
  return found && (lang() === 'ru' ? found.ru : found.en);
}
