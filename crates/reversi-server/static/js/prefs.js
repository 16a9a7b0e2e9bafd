// What the visitor chose, kept in this browser: language, colour scheme, sounds, the board's
// look (an account's follow it from browser to browser: account.js), the last game settings, and the games they play (so that the home page can list "your games").
const get = (k, d) => { try { const v = localStorage.getItem(k); return v === null ? d : v; } catch { return d; } };
const set = (k, v) => { try { localStorage.setItem(k, v); } catch { /* private mode */ } };

export const prefs = {
  get lang() { return get('lang', (navigator.language || 'en').toLowerCase().startsWith('ru') ? 'ru' : 'en'); },
  set lang(v) { set('lang', v); },
  /** 'auto' (follow the system), 'light' or 'dark'. */
  get theme() { return get('theme', 'auto'); },
  set theme(v) { set('theme', v); },
  /** Sounds: on unless turned off. */
  get sound() { return get('sound', 'on') === 'on'; },
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
  /** The board's cloth: 'green' (felt), 'blue' or 'wood'. */
  get board() { const v = get('board', 'green'); return ['green', 'blue', 'wood'].includes(v) ? v : 'green'; },
  set board(v) { set('board', v); },
  /** The letters and numbers around the board. */
  get coords() { return get('coords', 'on') === 'on'; },
  set coords(v) { set('coords', v ? 'on' : 'off'); },
  /** A tick every second while one's own clock runs low. */
  get tick() { return get('tick', 'on') === 'on'; },
  set tick(v) { set('tick', v ? 'on' : 'off'); },
  /** How fast discs appear and turn: 'off', 'fast', 'normal' or 'slow'. */
  get anim() { const v = get('anim', 'normal'); return ['off', 'fast', 'normal', 'slow'].includes(v) ? v : 'normal'; },
  set anim(v) { set('anim', v); },
  /** Zen mode: the game page shows only the board, the clocks and the buttons. */
  get zen() { return get('zen', 'off') === 'on'; },
  set zen(v) { set('zen', v ? 'on' : 'off'); },
  /** Premoves in games between people: a move chosen while the opponent thinks, played when
   * the turn comes (on unless turned off). */
  get premove() { return get('premove', 'on') === 'on'; },
  set premove(v) { set('premove', v ? 'on' : 'off'); },
  /** On a touch screen, a tapped move waits for Confirm (off unless turned on). */
  get confirm() { return get('confirm', 'off') === 'on'; },
  set confirm(v) { set('confirm', v ? 'on' : 'off'); },
  get notify() { return get('notify', 'off') === 'on'; },
  set notify(v) { set('notify', v ? 'on' : 'off'); },
};

/** The settings that follow an account (POST /api/account/prefs), as this browser has them. */
export function accountPrefs() {
  return { theme: prefs.theme, board: prefs.board, discs: prefs.discs, coords: prefs.coords, sound: prefs.sound,
    tick: prefs.tick, anim: prefs.anim, zen: prefs.zen, premove: prefs.premove, confirm: prefs.confirm };
}

/** Takes the settings an account stored (those it has set) into this browser. */
export function adoptPrefs(p) {
  const known = accountPrefs();
  for (const [k, v] of Object.entries(p || {})) if (v !== null && v !== undefined && k in known) prefs[k] = v;
  applyTheme();
  applyLook();
}

/** Applies the board's look, coordinates, animation speed and zen mode: attributes on the root
 * that the style sheet follows. */
export function applyLook() {
  const d = document.documentElement.dataset;
  d.board = prefs.board;
  d.coords = prefs.coords ? 'on' : 'off';
  d.anim = prefs.anim;
  d.zen = prefs.zen ? 'on' : 'off';
}

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
