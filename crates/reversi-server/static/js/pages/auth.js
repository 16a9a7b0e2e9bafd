// Signing in (/login) and signing up (/signup): a name and a password; errors in the reader's
// language, the same words for a wrong name as for a wrong password.
import { api } from '../api.js';
import { el, go, link, button } from '../dom.js';
import { t } from '../i18n.js';
import { setMe } from '../account.js';

export function authPage(app, mode) {
  const signup = mode === 'signup';
  document.title = t(signup ? 'web-sign-up' : 'web-sign-in') + ' — ' + t('web-title');
  const name = el('input', { id: 'auth-name', name: 'username', autocomplete: 'username', required: true, maxlength: 20, autocapitalize: 'none', spellcheck: 'false' });
  const pw = el('input', { id: 'auth-password', name: 'password', type: 'password', required: true, maxlength: 256,
    autocomplete: signup ? 'new-password' : 'current-password' });
  const err = el('p', { class: 'error', id: 'auth-error', role: 'alert' });
  const form = el('form', { class: 'auth-form card', onsubmit: async ev => {
    ev.preventDefault();
    try {
      const r = await api('POST', signup ? '/api/account/signup' : '/api/account/login', { name: name.value.trim(), password: pw.value });
      setMe(r.user);
      go(new URLSearchParams(location.search).get('then') || '/lobby');
    } catch (e) { err.textContent = e.message; }
  } },
  el('h1', {}, t(signup ? 'web-sign-up' : 'web-sign-in')),
  el('label', {}, el('span', {}, t('web-username')), name),
  signup ? el('p', { class: 'muted small' }, t('web-username-rules')) : null,
  el('label', {}, el('span', {}, t('web-password')), pw),
  signup ? el('p', { class: 'muted small' }, t('web-password-rules')) : el('p', { class: 'small' }, link('/reset', t('web-forgot-password'), { id: 'to-reset' })),
  err,
  button(t(signup ? 'web-sign-up' : 'web-sign-in'), { type: 'submit', class: 'primary', id: 'auth-submit' }),
  el('p', {}, signup ? link('/login', t('web-have-account'), { id: 'to-login' }) : link('/signup', t('web-no-account'), { id: 'to-signup' })));
  app.replaceChildren(el('div', { class: 'auth' }, form));
  name.focus();
}
