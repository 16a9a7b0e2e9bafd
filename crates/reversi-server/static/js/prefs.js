// What the visitor chose, kept in this browser: language, colour scheme, sounds, the last
// game settings, and the games they play (so that the home page can list "your games").
const get = (k, d) => { try { const v = localStorage.getItem(k); return v === null ? d : v; } catch { return d; } };
const set = (k, v) => { try { localStorage.setItem(k, v); } catch { /* private mode */ } };

export const prefs = {
  get lang() { return get('lang', (navigator.language || 'en').toLowerCase().startsWith('ru') ? 'ru' : 'en'); },
  set lang(v) { set('lang', v); },
  /** 'auto' (follow the system), 'light' or 'dark'. */
  get theme() { return get('theme', 'auto'); },
  set theme(v) { set('theme', v); },
  get sound() { return get('sound', 'off') === 'on'; },
  set sound(v) { set('sound', v ? 'on' : 'off'); },
  get level() { return Number(get('level', '5')) || 5; },
  set level(v) { set('level', String(v)); },
  get variant() { return get('variant', 'othello'); },
  set variant(v) { set('variant', v); },
  /** What a tie means in new games: 'draw' or 'second-wins' (the box edition's rule). */
  get tie() { return get('tie', 'draw') === 'second-wins' ? 'second-wins' : 'draw'; },
  set tie(v) { set('tie', v); },
  get color() { return get('color', 'black'); },
  set color(v) { set('color', v); },
  /** Browser notifications of "your move" while the tab is hidden (asked for in settings). */
  /** The discs drawn: 'classic' (black and white) or 'gold' (black and gold, the box edition's;
   * White's discs are drawn gold). */
  get discs() { return get('discs', 'classic') === 'gold' ? 'gold' : 'classic'; },
  set discs(v) { set('discs', v); },
  get notify() { return get('notify', 'off') === 'on'; },
  set notify(v) { set('notify', v ? 'on' : 'off'); },
};

/** The games this browser holds a seat in, newest first: [{id, at}]. */
export function myGames() {
  try { return JSON.parse(get('games', '[]')).filter(g => g && typeof g.id === 'string'); } catch { return []; }
}

/** Remembers a game this browser plays (at most 50 are kept). */
export function rememberGame(id) {
  const list = myGames().filter(g => g.id !== id);
  list.unshift({ id, at: Date.now() });
  set('games', JSON.stringify(list.slice(0, 50)));
}

/** Applies the colour scheme: `data-theme` on the root, `auto` following the system. */
export function applyTheme() {
  const t = prefs.theme;
  const dark = t === 'dark' || (t === 'auto' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}
