// Reversi web app: plain JavaScript modules, no build step. Pages: home, game (/game/ID),
// lobby (/lobby), tournaments (/tournaments, /tournament/ID), puzzles (/puzzles, /puzzles/ID), sign in and up (/login, /signup), profiles (/@/NAME), leaderboards
// (/players/CATEGORY), account settings (/account), a forgotten password and a confirmed address
// (/reset, /reset/SECRET, /verify/SECRET), archive (/archive), replay (/replay/ID), games on
// this device without a connection (/offline) and rules (/rules/VARIANT); they talk to the JSON API and the game's websocket (docs/api.md).
// Words come from the Fluent files (i18n.js).
import { $, go, el, link } from './dom.js';
import { loadLang, loadPart, lang, t } from './i18n.js';
import { prefs, applyTheme, applyLook } from './prefs.js';
import { loadMe, accountArea, savePrefs } from './account.js';
import { refreshTurns, titleCount } from './turns.js';

// Each page's module is loaded when the page is first opened (and kept by the browser): the
// route's pattern, its module, and how to open it; `open` returns what leaving the page stops
// and the page's keys.
/** A page module that needs a part of the messages too: both, fetched at once. */
const withPart = (part, module) => Promise.all([module, loadPart(part)]).then(([m]) => m);

const ROUTES = [
  [/^\/game\/([A-Za-z0-9]+)$/, () => import('./pages/game.js'), (m, app, id) => { m.gamePage(app, id); return { stop: m.stopGame, keys: m.gameKeys }; }],
  [/^\/replay\/([A-Za-z0-9]+)$/, () => import('./pages/replay.js'), (m, app, id) => { m.replayPage(app, id); return { stop: m.stopReplay, keys: m.replayKeys }; }],
  [/^\/analysis$/, () => import('./pages/analysis.js'), (m, app) => { m.analysisPage(app); return { stop: m.stopAnalysis, keys: m.analysisKeys }; }],
  [/^\/lobby$/, () => import('./pages/lobby.js'), (m, app) => { m.lobbyPage(app); return { stop: m.stopLobby }; }],
  [/^\/tournaments$/, () => import('./pages/tournaments.js'), (m, app) => { m.tournamentsPage(app); return { stop: m.stopTournaments }; }],
  [/^\/tournament\/([A-Za-z0-9]+)$/, () => import('./pages/tournaments.js'), (m, app, id) => { m.tournamentPage(app, id); return { stop: m.stopTournaments }; }],
  [/^\/puzzles(?:\/(daily|[0-9]+))?$/, () => import('./pages/puzzles.js'), (m, app, id) => { m.puzzlesPage(app, id); return { stop: m.stopPuzzles }; }],
  [/^\/(login|signup)$/, () => import('./pages/auth.js'), (m, app, which) => { m.authPage(app, which); }],
  [/^\/account$/, () => import('./pages/settings.js'), (m, app) => { m.settingsPage(app); }],
  [/^\/reset(?:\/([A-Za-z0-9]+))?$/, () => import('./pages/recover.js'), (m, app, token) => { m.resetPage(app, token); }],
  [/^\/verify\/([A-Za-z0-9]+)$/, () => import('./pages/recover.js'), (m, app, token) => { m.verifyPage(app, token); }],
  [/^\/@\/([^/]+)$/, () => import('./pages/profile.js'), (m, app, name) => { m.profilePage(app, decodeURIComponent(name)); }],
  [/^\/players(?:\/([a-z]+))?$/, () => import('./pages/players.js'), (m, app, cat) => { m.playersPage(app, cat); }],
  [/^\/archive$/, () => import('./pages/archive.js'), (m, app) => { document.title = t('web-archive-title') + ' — ' + t('web-title'); m.archivePage(app); }],
  [/^\/learn(?:\/([a-z-]+))?$/, () => withPart('learn', import('./pages/learn.js')), (m, app, id) => { if (id) m.lessonPage(app, id); else m.learnPage(app); return { stop: m.stopLearn, keys: m.learnKeys }; }],
  [/^\/about$/, () => withPart('about', import('./pages/about.js')), (m, app) => { m.aboutPage(app); }],
  [/^\/mod$/, () => import('./pages/mod.js'), (m, app) => { m.modPage(app); }],
  [/^\/offline$/, () => import('./pages/offline.js'), (m, app) => { m.offlinePage(app); return { stop: m.stopOffline }; }],
  [/^\/rules(?:\/([^/]+))?$/, () => import('./pages/rules.js'), (m, app, v) => { document.title = t('web-rules') + ' — ' + t('web-title'); m.rulesPage(app, v ? decodeURIComponent(v) : 'othello'); }],
  [/^/, () => import('./pages/home.js'), (m, app) => { m.homePage(app); return { stop: m.stopHome }; }],
];

/** The page shown: what leaving it stops, and its keys. */
let current = null;
let routing = 0;

function leavePage() {
  if (current && current.stop) current.stop();
  current = null;
  const d = $('#result-dialog');
  if (d && d.open) d.close();
}

async function route() {
  const p = location.pathname;
  const app = $('#app');
  const n = ++routing;
  leavePage();
  markNav(p);
  menu(false);
  const [re, load, open] = ROUTES.find(([r]) => r.test(p));
  let mod;
  try { mod = await load(); } catch {
    if (n === routing) app.textContent = t('error-offline');
    return;
  }
  if (n !== routing) return;
  current = open(mod, app, ...p.match(re).slice(1)) || {};
  window.scrollTo(0, 0);
  titleCount();
  refreshTurns();
}

/** The notice while the server cannot be reached: what needs it waits, what works without it. */
function unreachable(on) {
  const box = $('#notices');
  if (!box) return;
  box.querySelector('#offline-notice')?.remove();
  if (on) {
    box.prepend(el('div', { class: 'site-notice offline', id: 'offline-notice', role: 'status' },
      el('span', { class: 'notice-text' }, t('web-offline-notice')),
      el('span', { class: 'notice-actions' }, link('/offline', t('web-offline-link')))));
  }
}

/** The phone's menu (the site's links under the one-row header): opened, or closed. */
function menu(open) {
  const h = $('header.site'), b = $('#menu');
  if (!h || !b) return;
  h.classList.toggle('menu-open', open);
  b.setAttribute('aria-expanded', String(open));
}

function markNav(path) {
  for (const [id, prefix] of [['#nav-play', '/'], ['#nav-lobby', '/lobby'], ['#nav-tournaments', '/tournament'], ['#nav-puzzles', '/puzzles'], ['#nav-players', '/players'], ['#nav-archive', '/archive'], ['#nav-analysis', '/analysis'], ['#nav-learn', '/learn'], ['#nav-rules', '/rules']]) {
    const a = $(id);
    const on = prefix === '/' ? (path === '/' || path.startsWith('/game')) : path.startsWith(prefix);
    if (on) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
}

/** The header's words and buttons in the current language. */
function header() {
  document.querySelectorAll('[data-i18n]').forEach(e => { e.textContent = t(e.dataset.i18n); });
  document.querySelectorAll('[data-i18n-label]').forEach(e => { e.setAttribute('aria-label', t(e.dataset.i18nLabel)); e.title = t(e.dataset.i18nLabel); });
  $('#lang').textContent = lang() === 'en' ? 'RU' : 'EN';
  $('#lang').setAttribute('aria-label', lang() === 'en' ? 'Русский' : 'English');
  const theme = prefs.theme;
  $('#theme').dataset.state = theme;
  $('#theme').setAttribute('aria-label', t('web-theme-' + theme));
  $('#theme').title = t('web-theme-' + theme);
  $('#sound').setAttribute('aria-pressed', String(prefs.sound));
  $('#sound').title = t(prefs.sound ? 'web-sound-on' : 'web-sound-off');
  $('#sound').setAttribute('aria-label', $('#sound').title);
  document.title = t('web-title');
  accountArea();
}

async function setLang(l) {
  prefs.lang = l;
  try { await loadLang(l); } catch { return; }
  header();
  route();
}

async function start() {
  applyTheme();
  applyLook();
  // An account's settings arrived (signing in, or the first read of who is signed in).
  window.addEventListener('app:prefs', () => { if ($('#lang').textContent) header(); });
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyTheme);
  try { await loadLang(prefs.lang); } catch {
    $('#app').textContent = 'The server cannot be reached. / Сервер недоступен.';
    return;
  }
  header();
  window.addEventListener('app:reach', ev => unreachable(!ev.detail));
  await loadMe();
  for (const [id, path] of [['#home-link', '/'], ['#nav-play', '/'], ['#nav-lobby', '/lobby'], ['#nav-tournaments', '/tournaments'], ['#nav-puzzles', '/puzzles'], ['#nav-players', '/players'], ['#nav-archive', '/archive'], ['#nav-analysis', '/analysis'], ['#nav-learn', '/learn'], ['#nav-rules', '/rules']]) {
    $(id).onclick = ev => { if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button) return; ev.preventDefault(); go(path); };
  }
  $('#lang').onclick = () => setLang(lang() === 'en' ? 'ru' : 'en');
  $('#theme').onclick = () => {
    prefs.theme = { auto: 'light', light: 'dark', dark: 'auto' }[prefs.theme] || 'auto';
    applyTheme();
    header();
    savePrefs();
  };
  $('#sound').onclick = () => { prefs.sound = !prefs.sound; header(); savePrefs(); };
  $('#menu').onclick = () => menu(!$('header.site').classList.contains('menu-open'));
  window.addEventListener('popstate', route);
  window.addEventListener('app:navigate', route);
  // Leaving the site closes the page's sockets, so the opponent sees at once that the player
  // left (a page kept in the back-forward cache would otherwise stay connected); coming back
  // to a cached page opens it afresh.
  window.addEventListener('pagehide', leavePage);
  window.addEventListener('pageshow', ev => { if (ev.persisted) route(); });
  document.addEventListener('keydown', ev => {
    const tag = ev.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if ($('#result-dialog').open) return;
    if (current && current.keys) current.keys(ev);
  });
  route();
  // After one visit the site works without a network (sw.js).
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
}

start();
