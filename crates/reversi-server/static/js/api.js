// The JSON API (docs/api.md). Errors come back as Error objects whose message is in the
// interface's language (from the error's code), never the server's English or "Failed to fetch".
import { t, has } from './i18n.js';

/** The message for an error `code` of the API ('offline' when the server cannot be reached). */
export function errorText(code, fallback) {
  const id = 'error-' + String(code || 'generic').replace(/_/g, '-');
  return has(id) ? t(id) : (fallback && has(fallback) ? t(fallback) : t('error-generic'));
}

let reached = true;

/** Whether the server answered the last call: a change is announced (`app:reach`), and the
 * header shows what works without it. */
function reach(ok) {
  if (ok === reached) return;
  reached = ok;
  window.dispatchEvent(new CustomEvent('app:reach', { detail: ok }));
}

/** Calls the API; the answer's JSON, or an Error with `code` and a translated `message`. */
export async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(path, opts);
  } catch {
    reach(false);
    const e = new Error(errorText('offline'));
    e.code = 'offline';
    throw e;
  }
  // The service worker's kept copy (sw.js) is an answer, but not the server's.
  reach(resp.headers.get('X-Offline') !== '1');
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    const e = new Error(errorText(data.code));
    e.code = data.code || String(resp.status);
    // The server's own words (English), for a page that reads a detail out of them.
    e.detail = data.error || '';
    throw e;
  }
  return data;
}
