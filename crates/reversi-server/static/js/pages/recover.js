// A forgotten password and a confirmed address, by mail: /reset asks for the link, /reset/SECRET
// sets the new password, /verify/SECRET confirms an address. The secret leaves the address bar
// as soon as the page has read it (it stays out of the history and of screenshots).
import { api } from '../api.js';
import { el, link, button } from '../dom.js';
import { lang, t } from '../i18n.js';
import { setMe } from '../account.js';

/** The secret of `/reset/SECRET` or `/verify/SECRET`, taken out of the address bar. */
function takeSecret(token, path) {
  history.replaceState(null, '', path);
  return token;
}

/** `/reset` (a form for the address) or `/reset/SECRET` (a form for the new password). */
export async function resetPage(app, token) {
  document.title = t('web-reset-title') + ' — ' + t('web-title');
  const status = el('p', { class: 'notice', id: 'reset-msg', role: 'status' });
  if (token) {
    const secret = takeSecret(token, '/reset');
    const pw = el('input', { id: 'reset-password', name: 'password', type: 'password', autocomplete: 'new-password', required: true, maxlength: 256 });
    const form = el('form', { class: 'auth-form card', id: 'reset-form', onsubmit: async ev => {
      ev.preventDefault();
      try {
        const r = await api('POST', '/api/account/reset/confirm', { token: secret, password: pw.value });
        setMe(r.user);
        form.replaceChildren(el('h1', {}, t('web-reset-title')), el('p', { id: 'reset-done', role: 'status' }, t('web-reset-done')),
          el('p', {}, link('/lobby', t('web-nav-play')), ' · ', link('/account', t('web-settings'))));
      } catch (e) {
        status.textContent = e.message;
        if (e.code === 'link_expired') status.append(' ', link('/reset', t('web-reset-send')));
      }
    } },
    el('h1', {}, t('web-reset-title')),
    el('label', {}, el('span', {}, t('web-reset-new')), pw),
    el('p', { class: 'muted small' }, t('web-password-rules')),
    status,
    button(t('web-reset-save'), { type: 'submit', class: 'primary', id: 'reset-submit' }));
    app.replaceChildren(el('div', { class: 'auth' }, form));
    pw.focus();
    return;
  }
  const address = el('input', { id: 'reset-email', name: 'email', type: 'email', autocomplete: 'email', required: true, maxlength: 254, autocapitalize: 'none', spellcheck: 'false' });
  const submit = button(t('web-reset-send'), { type: 'submit', class: 'primary', id: 'reset-submit' });
  const form = el('form', { class: 'auth-form card', id: 'reset-form', onsubmit: async ev => {
    ev.preventDefault();
    try {
      await api('POST', '/api/account/reset', { email: address.value.trim(), lang: lang() });
      status.textContent = t('web-reset-sent');
    } catch (e) { status.textContent = e.message; }
  } },
  el('h1', {}, t('web-reset-title')),
  el('p', { class: 'muted' }, t('web-reset-lead')),
  el('label', {}, el('span', {}, t('web-email')), address),
  status,
  submit,
  el('p', {}, link('/login', t('web-have-account'))));
  app.replaceChildren(el('div', { class: 'auth' }, form));
  address.focus();
  try {
    const v = await api('GET', '/api/account/email');
    if (!v.mail) {
      address.disabled = submit.disabled = true;
      status.textContent = t('web-reset-unavailable');
    }
  } catch { /* the form says what goes wrong when it is sent */ }
}

/** `/verify/SECRET`: confirms the address the link was mailed to. */
export async function verifyPage(app, token) {
  document.title = t('web-verify-title') + ' — ' + t('web-title');
  const secret = takeSecret(token, '/account');
  const status = el('p', { id: 'verify-msg', role: 'status' }, t('web-verify-working'));
  app.replaceChildren(el('div', { class: 'auth' }, el('section', { class: 'auth-form card' },
    el('h1', {}, t('web-verify-title')), status, el('p', {}, link('/account', t('web-settings'))))));
  try {
    const v = await api('POST', '/api/account/email/verify', { token: secret, lang: lang() });
    status.textContent = t('web-verify-done', { email: v.email });
  } catch (e) { status.textContent = e.message; }
}
