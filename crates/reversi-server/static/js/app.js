// Reversi web app: plain JavaScript modules, no build step. Pages: home, game (/game/ID),
// lobby (/lobby), tournaments (/tournaments, /tournament/ID), puzzles (/puzzles, /puzzles/ID), sign in and up (/login, /signup), profiles (/@/NAME), leaderboards
// (/players/CATEGORY), account settings (/account), archive (/archive), replay (/replay/ID) and
// rules (/rules/VARIANT); they talk to the JSON API and the game's websocket (docs/api.md).
// Words come from the Fluent files (i18n.js).
import { $, go } from './dom.js';
import { loadLang, lang, t } from './i18n.js';
import { prefs, applyTheme } from './prefs.js';
import { homePage } from './pages/home.js';
import { gamePage, stopGame, gameKeys, inGame } from './pages/game.js';
import { archivePage } from './pages/archive.js';
import { replayPage, stopReplay, replayKeys } from './pages/replay.js';
import { analysisPage, stopAnalysis, analysisKeys } from './pages/analysis.js';
import { rulesPage } from './pages/rules.js';
import { lobbyPage, stopLobby } from './pages/lobby.js';
import { authPage } from './pages/auth.js';
import { profilePage } from './pages/profile.js';
import { playersPage } from './pages/players.js';
import { settingsPage } from './pages/settings.js';
import { tournamentsPage, tournamentPage, stopTournaments } from './pages/tournaments.js';
import { puzzlesPage, stopPuzzles } from './pages/puzzles.js';
import { loadMe, accountArea } from './account.js';

function leavePage() {
  stopGame();
  stopReplay();
  stopLobby();
  stopAnalysis();
  stopTournaments();
  stopPuzzles();
  const d = $('#result-dialog');
  if (d && d.open) d.close();
}

function route() {
  const p = location.pathname;
  const app = $('#app');
  let m;
  leavePage();
  markNav(p);
  if ((m = p.match(/^\/game\/([A-Za-z0-9]+)$/))) gamePage(app, m[1]);
  else if ((m = p.match(/^\/replay\/([A-Za-z0-9]+)$/))) replayPage(app, m[1]);
  else if (p === '/analysis') analysisPage(app);
  else if (p === '/lobby') lobbyPage(app);
  else if (p === '/tournaments') tournamentsPage(app);
  else if ((m = p.match(/^\/puzzles(?:\/(daily|[0-9]+))?$/))) puzzlesPage(app, m[1]);
  else if ((m = p.match(/^\/tournament\/([A-Za-z0-9]+)$/))) tournamentPage(app, m[1]);
  else if (p === '/login' || p === '/signup') authPage(app, p.slice(1));
  else if (p === '/account') settingsPage(app);
  else if ((m = p.match(/^\/@\/([^/]+)$/))) profilePage(app, decodeURIComponent(m[1]));
  else if ((m = p.match(/^\/players(?:\/([a-z]+))?$/))) playersPage(app, m[1]);
  else if (p === '/archive') { document.title = t('web-archive-title') + ' — ' + t('web-title'); archivePage(app); }
  else if ((m = p.match(/^\/rules(?:\/([^/]+))?$/))) { document.title = t('web-rules') + ' — ' + t('web-title'); rulesPage(app, m[1] ? decodeURIComponent(m[1]) : 'othello'); }
  else homePage(app);
  window.scrollTo(0, 0);
}

function markNav(path) {
  for (const [id, prefix] of [['#nav-play', '/'], ['#nav-lobby', '/lobby'], ['#nav-tournaments', '/tournament'], ['#nav-puzzles', '/puzzles'], ['#nav-players', '/players'], ['#nav-archive', '/archive'], ['#nav-analysis', '/analysis'], ['#nav-rules', '/rules']]) {
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
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyTheme);
  try { await loadLang(prefs.lang); } catch {
    $('#app').textContent = 'The server cannot be reached. / Сервер недоступен.';
    return;
  }
  header();
  await loadMe();
  for (const [id, path] of [['#home-link', '/'], ['#nav-play', '/'], ['#nav-lobby', '/lobby'], ['#nav-tournaments', '/tournaments'], ['#nav-puzzles', '/puzzles'], ['#nav-players', '/players'], ['#nav-archive', '/archive'], ['#nav-rules', '/rules']]) {
    $(id).onclick = ev => { if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button) return; ev.preventDefault(); go(path); };
  }
  $('#lang').onclick = () => setLang(lang() === 'en' ? 'ru' : 'en');
  $('#theme').onclick = () => {
    prefs.theme = { auto: 'light', light: 'dark', dark: 'auto' }[prefs.theme] || 'auto';
    applyTheme();
    header();
  };
  $('#sound').onclick = () => { prefs.sound = !prefs.sound; header(); };
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
    if (inGame()) gameKeys(ev); else if (location.pathname === '/analysis') analysisKeys(ev); else replayKeys(ev);
  });
  route();
}

start();
