// Who is signed in (GET /api/account), shown in the header; pages ask `me()`.
import { api } from './api.js';
import { $, el, link, go } from './dom.js';
import { t } from './i18n.js';
import { accountPrefs, adoptPrefs } from './prefs.js';

let current = null;

/** The account signed in ({name, bot, chat_off}), or null. */
export const me = () => current;

/** Asks the server who is signed in and redraws the header's account area. */
export async function loadMe() {
  try { current = (await api('GET', '/api/account')).user; } catch { current = null; }
  if (current && current.prefs) { adoptPrefs(current.prefs); window.dispatchEvent(new Event('app:prefs')); }
  accountArea();
  return current;
}

/** Sets the account after signing in or out. */
export function setMe(user) {
  current = user;
  if (user && user.prefs) {
    // Signing in: what this browser chose fills in what the account has not set yet.
    const unset = Object.entries(user.prefs).some(([, v]) => v === null || v === undefined);
    adoptPrefs(user.prefs);
    window.dispatchEvent(new Event('app:prefs'));
    if (unset) savePrefs();
  }
  accountArea();
  window.dispatchEvent(new Event('app:me'));
}

/** Stores this browser's settings in the account signed in (nothing for a guest). */
export async function savePrefs() {
  if (!current) return;
  try { current = (await api('POST', '/api/account/prefs', accountPrefs())).user || current; } catch { /* kept in this browser */ }
}

/** The header's account area: sign in and the settings, or the name (to the profile), the
 * settings and sign out. */
export function accountArea() {
  const box = $('#account');
  if (!box) return;
  if (!current) {
    // A guest's settings are this browser's (the board's look).
    box.replaceChildren(link('/login', t('web-sign-in'), { id: 'nav-login', class: 'account-link' }),
      link('/account', t('web-settings'), { id: 'nav-settings', class: 'account-link' }));
    return;
  }
  box.replaceChildren(
    link('/@/' + encodeURIComponent(current.name), current.name, { id: 'nav-me', class: 'account-link' }),
    current.moderator ? link('/mod', t('web-mod-title'), { id: 'nav-mod', class: 'account-link' }) : '',
    link('/account', t('web-settings'), { id: 'nav-settings', class: 'account-link' }),
    el('button', { type: 'button', id: 'sign-out', class: 'lang-button', onclick: async () => {
      try { await api('POST', '/api/account/logout', {}); } catch { /* signed out anyway */ }
      setMe(null);
      go('/');
    } }, t('web-sign-out')));
}
