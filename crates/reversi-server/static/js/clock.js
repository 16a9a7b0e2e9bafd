// Clock faces: time left as the site shows it (tenths under ten seconds), and the control.
import { t } from './i18n.js';

/** "4:59", "1:02:03", or "9.8" under ten seconds. */
export function clockText(ms) {
  ms = Math.max(0, ms);
  if (ms < 10_000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const pad = n => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(r)}` : `${m}:${pad(r)}`;
}

/** A time control in the reader's words: "5+3" as it is, "3d" as "3 days" ("3 дня"). */
export function controlText(control) {
  const d = /^(\d+)d$/.exec(control || '');
  return d ? t('web-control-days', { n: Number(d[1]) }) : control || '';
}

/** Whether `ms` left is low for a game of `control` ("5+3", "3d"): under a tenth of the
 * initial time, at most 20 s. */
export function lowTime(ms, control) {
  const m = /^([\d.]+)\+/.exec(control || '');
  const initial = m ? Number(m[1]) * 60_000 : 86_400_000;
  return ms < Math.min(20_000, initial / 10);
}
