// The settings (/account): the board's look and the game's feel (cloth, discs, coordinates,
// animation, sounds and the low-time tick, zen mode, premoves, confirming moves on a touch
// screen; an account's follow it), then the account's —
// change the password, the e-mail address (confirmed by a mailed link), the country (a flag
// beside the name), turn chat off, make the
// account a bot (its API token is shown once), delete the account. A guest gets the board and the way to sign in.
import { api } from '../api.js';
import { $, el, go, button, link } from '../dom.js';
import { drawBoard } from '../board.js';
import { lang, t } from '../i18n.js';
import { me, setMe, savePrefs } from '../account.js';
import { prefs, applyLook } from '../prefs.js';
import { META } from '../meta.js';
import { flag, countryName } from '../avatar.js';

const SAMPLE = '..........................XOX......OXO..........................';

/** A row of buttons of which one is on: `values` named by `t(prefix + value)`. */
function segmented(label, key, values, prefix, changed) {
  const group = el('div', { class: 'segmented', role: 'radiogroup', 'aria-label': label, id: 'pref-' + key });
  for (const v of values) {
    group.append(el('button', { type: 'button', role: 'radio', class: 'seg' + (prefs[key] === v ? ' on' : ''), 'aria-checked': String(prefs[key] === v), 'data-value': v,
      onclick: () => {
        prefs[key] = v;
        group.querySelectorAll('.seg').forEach(x => { const on = x.dataset.value === v; x.classList.toggle('on', on); x.setAttribute('aria-checked', String(on)); });
        changed();
      } }, t(prefix + v)));
  }
  return el('div', { class: 'option-row' }, el('span', { class: 'option-label' }, label), group);
}

/** A setting on or off. */
function toggle(key, label, changed) {
  const box = el('input', { type: 'checkbox', id: 'pref-' + key, checked: prefs[key], onchange: () => { prefs[key] = box.checked; changed(); } });
  return el('label', { class: 'check' }, box, el('span', {}, label));
}

/** The board's look and the game's feel: kept in this browser, and in the account when one is
 * signed in (every browser signed in to it follows them). */
function boardCard() {
  const preview = el('div', { class: 'disc-preview', id: 'disc-preview', 'aria-hidden': 'true' });
  const show = () => preview.replaceChildren(drawBoard({ width: 8, height: 8, cells: SAMPLE, flipped: [] }, { label: t('web-board') }));
  const changed = () => { applyLook(); show(); savePrefs(); };
  show();
  return el('section', { class: 'card', id: 'board-settings' }, el('h2', {}, t('web-board-look')),
    segmented(t('web-board-cloth'), 'board', ['green', 'blue', 'wood'], 'web-board-cloth-', changed),
    segmented(t('web-discs'), 'discs', ['classic', 'gold'], 'web-discs-', changed),
    preview,
    toggle('coords', t('web-coords'), changed),
    segmented(t('web-anim'), 'anim', ['off', 'fast', 'normal', 'slow'], 'web-anim-', changed),
    toggle('sound', t('web-sounds'), () => { changed(); window.dispatchEvent(new Event('app:prefs')); }),
    toggle('tick', t('web-tick'), changed),
    toggle('zen', t('web-zen'), changed),
    toggle('premove', t('web-pref-premove'), changed),
    toggle('confirm', t('web-pref-confirm'), changed),
    el('p', { class: 'muted small' }, t(me() ? 'web-prefs-account' : 'web-prefs-browser')));
}

/** The account's country: a flag beside its name on its profile and in its games. The
 * countries are named in the reader's language, in its alphabetical order. */
function countryCard(user) {
  const names = META.countries.map(c => [c, countryName(c)]).sort((a, b) => a[1].localeCompare(b[1], lang()));
  const select = el('select', { id: 'country', 'aria-label': t('web-country') },
    el('option', { value: '' }, t('web-country-none')),
    ...names.map(([c, name]) => el('option', { value: c }, name)));
  select.value = user.country || '';
  const shown = el('span', { id: 'country-flag' }, flag(user.country));
  select.onchange = async () => {
    try {
      const u = (await api('POST', '/api/account/country', { country: select.value || null })).user;
      setMe(u);
      shown.replaceChildren(...[flag(u.country)].filter(Boolean));
      $('#country-msg').textContent = t('web-saved');
    } catch (e) { $('#country-msg').textContent = e.message; }
  };
  return el('section', { class: 'card', id: 'country-settings' }, el('h2', {}, t('web-country')),
    el('p', { class: 'muted' }, t('web-country-lead')),
    el('div', { class: 'option-row' }, select, shown),
    el('p', { class: 'notice', id: 'country-msg', role: 'status' }));
}

/** The account's e-mail address: the confirmed one, the one waiting for its link, a new one. */
function emailCard() {
  const status = el('p', { class: 'notice', id: 'email-msg', role: 'status' });
  const shown = el('p', { id: 'email-now' });
  const address = el('input', { id: 'email-new', type: 'email', autocomplete: 'email', maxlength: 254, required: true, autocapitalize: 'none', spellcheck: 'false' });
  const password = el('input', { id: 'email-password', type: 'password', autocomplete: 'current-password', maxlength: 256, required: true });
  const send = button(t('web-email-send'), { type: 'submit', id: 'email-submit' });
  const remove = button(t('web-email-remove'), { type: 'button', id: 'email-remove', hidden: true });
  // Letters about play go to the confirmed address, in the language of the page that asked.
  const notify = el('input', { type: 'checkbox', id: 'mail-notify', onchange: async () => {
    try {
      await api('POST', '/api/account/notify', { on: notify.checked, lang: lang() });
      status.textContent = t(notify.checked ? 'web-notify-on' : 'web-notify-off');
    } catch (e) { status.textContent = e.message; notify.checked = !notify.checked; }
  } });
  const notifyRow = el('label', { class: 'check', id: 'mail-notify-row', hidden: true }, notify, el('span', {}, t('web-notify-mail')));
  const show = v => {
    notify.checked = !!v.notify;
    notifyRow.hidden = !(v.mail && v.email);
    shown.replaceChildren(v.email ? t('web-email-current', { email: v.email }) : t('web-email-none'));
    if (v.pending) shown.append(el('br'), el('span', { class: 'muted', id: 'email-pending' }, t('web-email-pending', { email: v.pending })));
    remove.hidden = !v.email;
    if (!v.mail) {
      address.disabled = password.disabled = send.disabled = true;
      status.textContent = t('web-email-unavailable');
    }
  };
  const submit = async email => {
    try {
      show(await api('POST', '/api/account/email', { email, password: password.value, lang: lang() }));
      password.value = address.value = '';
      status.textContent = email ? '' : t('web-email-removed');
    } catch (e) { status.textContent = e.message; }
  };
  remove.onclick = () => { if (password.reportValidity()) submit(''); };
  api('GET', '/api/account/email').then(show, e => { status.textContent = e.message; });
  return el('form', { class: 'card', id: 'email-settings', onsubmit: ev => { ev.preventDefault(); submit(address.value.trim()); } },
    el('h2', {}, t('web-email-card')), el('p', { class: 'muted' }, t('web-email-lead')), shown,
    el('label', {}, el('span', {}, t('web-email-new')), address),
    el('label', {}, el('span', {}, t('web-password')), password), status,
    el('div', { class: 'buttons' }, send, remove), notifyRow);
}

export function settingsPage(app) {
  const user = me();
  document.title = t('web-settings') + ' — ' + t('web-title');
  if (!user) {
    app.replaceChildren(el('div', { class: 'settings' }, el('h1', {}, t('web-settings')), boardCard(),
      el('p', { class: 'muted' }, t('web-settings-guest'), ' ', link('/login?then=/account', t('web-sign-in')))));
    return;
  }
  const pw = (id, auto) => el('input', { id, type: 'password', autocomplete: auto, maxlength: 256, required: true });
  const msg = id => el('p', { class: 'notice', id, role: 'status' });
  const current = pw('pw-current', 'current-password'), next = pw('pw-new', 'new-password');
  const chat = el('input', { type: 'checkbox', id: 'chat-off', checked: user.chat_off, onchange: async () => {
    try { setMe((await api('POST', '/api/account/chat', { off: chat.checked })).user); $('#chat-msg').textContent = t('web-saved'); }
    catch (e) { $('#chat-msg').textContent = e.message; }
  } });
  // Notifications are this browser's choice (the browser asks its own permission).
  const notify = el('input', { type: 'checkbox', id: 'notify', checked: prefs.notify && 'Notification' in window && Notification.permission === 'granted',
    disabled: !('Notification' in window), onchange: async () => {
      let ok = notify.checked;
      if (ok && Notification.permission !== 'granted') ok = (await Notification.requestPermission()) === 'granted';
      prefs.notify = ok;
      notify.checked = ok;
      $('#notify-msg').textContent = !ok && Notification.permission === 'denied' ? t('web-notify-denied') : t('web-saved');
    } });
  const botPw = pw('bot-password', 'current-password'), delPw = pw('delete-password', 'current-password');
  app.replaceChildren(el('div', { class: 'settings' }, el('h1', {}, t('web-settings')),
    boardCard(),
    el('form', { class: 'card', onsubmit: async ev => {
      ev.preventDefault();
      try { await api('POST', '/api/account/password', { current: current.value, new: next.value }); $('#pw-msg').textContent = t('web-password-changed'); current.value = next.value = ''; }
      catch (e) { $('#pw-msg').textContent = e.message; }
    } }, el('h2', {}, t('web-change-password')),
    el('label', {}, el('span', {}, t('web-current-password')), current),
    el('label', {}, el('span', {}, t('web-new-password')), next), msg('pw-msg'),
    button(t('web-change-password'), { type: 'submit', id: 'pw-submit' })),
    emailCard(),
    countryCard(user),
    el('section', { class: 'card' }, el('h2', {}, t('web-chat')), el('label', { class: 'check' }, chat, el('span', {}, t('web-chat-off'))), msg('chat-msg')),
    el('section', { class: 'card' }, el('h2', {}, t('web-your-games-turn')), el('label', { class: 'check' }, notify, el('span', {}, t('web-notify'))), msg('notify-msg')),
    el('form', { class: 'card', onsubmit: async ev => {
      ev.preventDefault();
      try {
        const r = await api('POST', '/api/account/bot', { password: botPw.value });
        $('#bot-msg').replaceChildren(t('web-bot-token'), ' ', el('code', { id: 'bot-token' }), ' ', el('span', {}, t('web-bot-howto')));
        $('#bot-token').textContent = r.token;
      } catch (e) { $('#bot-msg').textContent = e.message; }
    } }, el('h2', {}, t('web-bot-account')), el('p', { class: 'muted' }, t('web-bot-lead')),
    el('label', {}, el('span', {}, t('web-password')), botPw), msg('bot-msg'),
    button(t('web-make-bot'), { type: 'submit', id: 'bot-submit' })),
    el('form', { class: 'card danger-zone', onsubmit: async ev => {
      ev.preventDefault();
      try { await api('POST', '/api/account/delete', { password: delPw.value }); setMe(null); go('/'); }
      catch (e) { $('#delete-msg').textContent = e.message; }
    } }, el('h2', {}, t('web-delete-account')), el('p', { class: 'muted' }, t('web-delete-lead')),
    el('label', {}, el('span', {}, t('web-password')), delPw), msg('delete-msg'),
    button(t('web-delete-account'), { type: 'submit', id: 'delete-submit', class: 'danger' }))));
}
