// The replay (/replay/ID): step through a game, with the engine's analysis of every move, the
// evaluation chart, and each player's totals.
import { api } from '../api.js';
import { drawBoard } from '../board.js';
import { $, $$, el, link, button, svg, icon, hasKeyboard, go } from '../dom.js';
import { liveSocket } from '../live.js';
import { t, colorName, variantName, lang } from '../i18n.js';
import { playerName, resultText, presetRows } from './summary.js';
import { openingAt } from '../opening.js';
import { analysisUrl } from './analysis.js';
import { coachText, coachItems } from '../coach.js';

let R = null;

export function stopReplay() {
  if (R && R.live) R.live.close();
  R = null;
}

export async function replayPage(app, id) {
  const r = R = { id, data: null, ply: 0, analysis: null, live: null, chart: null };
  app.replaceChildren(el('p', { class: 'muted' }, '…'));
  try {
    r.data = await api('GET', `/api/games/${id}/replay`);
    r.analysis = await api('GET', `/api/games/${id}/analysis`);
  } catch (e) { if (R === r) app.replaceChildren(el('p', { class: 'error' }, e.message)); return; }
  if (R !== r) return;
  const fromHash = (location.hash.match(/^#ply-(\d+)$/) || [])[1];
  r.ply = fromHash !== undefined ? Math.min(Number(fromHash), r.data.moves.length) : r.data.moves.length;
  const d = r.data;
  const controls = el('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': t('web-replay') });
  for (const [key, fn] of [['first', () => 0], ['prev', p => p - 1], ['next', p => p + 1], ['last', () => R.data.moves.length]]) {
    controls.append(el('button', { id: 'replay-' + key, type: 'button', title: t('web-step-' + key), 'aria-label': t('web-step-' + key), onclick: () => step(fn(R.ply)) }, icon(key)));
  }
  controls.append(el('span', { id: 'ply-label', class: 'ply-label' }));
  app.replaceChildren(
    el('h1', { class: 'replay-title' }, variantName(d.variant), el('small', {}, ` ● ${playerName(d.players.black, d.level)} · ○ ${playerName(d.players.white, d.level)}`)),
    el('div', { class: 'game-page' },
      el('div', { class: 'board-col' }, el('div', { class: 'board-wrap', id: 'replay-board' }), controls),
      el('aside', { class: 'panel' },
        el('div', { class: 'status ended', id: 'replay-result' }, d.status === 'playing' ? t('web-status-playing') : resultText(d)),
        el('div', { class: 'counts', id: 'replay-counts' }),
        el('div', { class: 'opening', id: 'replay-opening' }),
        el('p', { class: 'verdict', id: 'verdict' }),
        el('ul', { class: 'coach', id: 'coach', 'aria-label': t('web-coach') }),
        el('div', { class: 'moves', id: 'replay-moves' }),
        hasKeyboard() ? el('p', { class: 'meta' }, t('web-keys-replay')) : null,
        el('div', { class: 'buttons' }, link('/game/' + id, t('web-back-to-game'), { class: 'button' }),
          el('button', { type: 'button', id: 'replay-analyse', onclick: () => go(analysisUrl(d.variant, d.moves, R.ply)) }, t('web-analysis-open')),
          d.variant === 'othello' ? el('button', { type: 'button', id: 'replay-explore', onclick: () => go(analysisUrl(d.variant, d.moves, R.ply) + '&tab=db') }, t('web-explorer-open')) : null, link('/archive', t('web-archive'), { class: 'button' }),
          link('/rules/' + d.variant, t('web-rules'), { class: 'button' })))),
    el('section', { id: 'analysis', class: 'analysis', 'aria-label': t('web-analysis') }));
  renderMoveList();
  renderReplay();
  renderAnalysis();
}

function step(ply) {
  if (!R || !R.data) return;
  R.ply = Math.max(0, Math.min(R.data.moves.length, ply));
  history.replaceState(null, '', `/replay/${R.id}#ply-${R.ply}`);
  renderReplay();
}

const verdictAt = ply => R.analysis && R.analysis.moves.find(m => m.ply === ply);

function renderMoveList() {
  const d = R.data;
  const first = d.frames[0].to_move || 'black', second = first === 'black' ? 'white' : 'black';
  const preset = d.preset || [];
  const body = el('tbody', {});
  for (let i = 0; i < d.moves.length; i += 2) {
    const tr = el('tr', {}, el('th', { scope: 'row' }, String((preset.length + i) / 2 + 1)));
    for (const k of [i, i + 1]) {
      const m = d.moves[k];
      if (m === undefined) { tr.append(el('td', {})); continue; }
      const v = verdictAt(k + 1);
      const b = el('button', { type: 'button', class: 'mv' + (m === 'pass' ? ' pass' : ''), 'data-ply': k + 1, onclick: () => step(k + 1) }, m === 'pass' ? t('web-pass') : m);
      if (v && v.loss > 0) {
        b.classList.add('mistake'); b.append(el('span', { class: 'loss' }, '−' + v.loss));
        if (v.facts && v.facts.length) b.title = coachText(v.facts).join(' ');
      }
      tr.append(el('td', {}, b));
    }
    body.append(tr);
  }
  $('#replay-moves').replaceChildren(el('table', { class: 'record', id: 'replay-list' },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, colorName(first)), el('th', { scope: 'col' }, colorName(second)))),
    preset.length ? el('tbody', { class: 'preset-moves' }, ...presetRows(preset)) : null, body));
}

function renderReplay() {
  const d = R.data, f = d.frames[R.ply];
  const v = verdictAt(R.ply);
  // A mistake: where the better move was, ringed on the board beside the move played.
  const better = v && v.loss > 0 && v.best !== 'pass' ? v.best : null;
  $('#replay-board').replaceChildren(drawBoard({ width: d.width, height: d.height, cells: f.cells, last_move: f.last_move, flipped: f.flipped }, { label: t('web-board'), better }));
  $('#ply-label').textContent = R.ply === 0 ? t('web-start-position') : t('web-move-of', { n: R.ply, total: d.moves.length });
  $('#replay-counts').replaceChildren(
    el('span', { class: 'stone black', 'aria-hidden': 'true' }), el('span', { class: f.to_move === 'black' ? 'on-move' : '' }, `${colorName('black')} ${f.black_count}`),
    el('span', { class: 'stone white', 'aria-hidden': 'true' }), el('span', { class: f.to_move === 'white' ? 'on-move' : '' }, `${colorName('white')} ${f.white_count}`));
  const opening = openingAt(d.openings, R.ply);
  $('#replay-opening').textContent = opening ? t('web-opening', { name: opening }) : '';
  $('#replay-first').disabled = $('#replay-prev').disabled = R.ply === 0;
  $('#replay-next').disabled = $('#replay-last').disabled = R.ply === d.moves.length;
  $$('#replay-list button').forEach(b => {
    const on = Number(b.dataset.ply) === R.ply;
    b.classList.toggle('current', on);
    if (on) { b.setAttribute('aria-current', 'step'); b.scrollIntoView({ block: 'nearest' }); } else b.removeAttribute('aria-current');
  });
  const sign = n => (n > 0 ? '+' : n < 0 ? '−' : '') + Math.abs(n);
  $('#verdict').textContent = !v ? '' : v.loss > 0
    ? t('web-verdict-loss', { move: v.played, color: v.player, score: sign(v.played_score), best: v.best, bestScore: sign(v.best_score), n: v.loss })
    : t('web-verdict-best', { move: v.played, color: v.player, score: sign(v.played_score) });
  // The coach: why, fact by fact (the first, the loss or "the best move", the verdict says).
  $('#coach').replaceChildren(...(v && v.facts ? coachItems(v.facts.slice(1)) : []));
  moveChartCursor();
}

async function requestAnalysis() {
  try {
    R.analysis = await api('POST', `/api/games/${R.id}/analysis`);
    renderAnalysis();
  } catch (e) { $('#analysis-status').textContent = e.message; }
}

/** While the analysis is queued or running, its progress comes through the page's socket. */
function followAnalysis(r) {
  if (r.live) return;
  r.live = liveSocket(`/api/games/${r.id}/analysis/ws`, msg => {
    if (R !== r || msg.type !== 'analysis') return;
    r.analysis = msg.analysis;
    if (!['queued', 'running'].includes(msg.analysis.status)) { r.live.close(); r.live = null; }
    renderMoveList();
    renderReplay();
    renderAnalysis();
  });
}

function renderAnalysis() {
  const a = R.analysis, box = $('#analysis');
  if (!box) return;
  box.replaceChildren(el('h2', {}, t('web-analysis')));
  const status = a.status === 'running' ? t('web-analysis-running', { done: a.progress.done, total: a.progress.total })
    : a.status === 'done' ? t('web-analysis-done', { level: a.level })
      : a.status === 'failed' ? t('web-analysis-failed') : a.status === 'queued' ? t('web-analysis-queued') : t('web-analysis-none-yet');
  box.append(el('p', { id: 'analysis-status', role: 'status' }, status));
  if ((a.status === 'none' || a.status === 'failed') && R.data.status === 'finished') {
    box.append(button(t('web-analyse'), { class: 'primary', id: 'analyse', onclick: requestAnalysis }, 'search'));
  }
  if (a.status === 'queued' || a.status === 'running') {
    box.append(el('progress', { max: a.progress.total, value: a.progress.done, 'aria-label': status }));
    followAnalysis(R);
  }
  if (a.status !== 'done') return;
  const chartBox = el('div', { class: 'chart', id: 'chart' });
  box.append(chartBox, totalsTable(a));
  loadChart(chartBox);
}

function totalsTable(a) {
  const head = el('tr', {}, ['web-col-players', 'web-total-loss', 'web-mistakes', 'web-largest'].map(k => el('th', { scope: 'col' }, t(k))));
  const body = el('tbody', {});
  for (const c of ['black', 'white']) {
    const s = a.summary[c];
    const worst = el('td', {});
    s.worst.forEach((w, i) => {
      if (i) worst.append(', ');
      worst.append(el('button', { type: 'button', class: 'linkish', onclick: () => step(w.ply) }, `${w.ply}. ${w.played} −${w.loss} (${w.best})`));
    });
    body.append(el('tr', { id: 'totals-' + c }, el('th', { scope: 'row' }, (c === 'black' ? '● ' : '○ ') + colorName(c)),
      el('td', { class: 'num' }, t('discs-count', { n: s.total_loss })), el('td', { class: 'num' }, `${s.mistakes} / ${s.moves}`), worst));
  }
  return el('div', { class: 'table-wrap' }, el('table', { class: 'totals', id: 'totals' }, el('thead', {}, head), body));
}

// The server draws the chart (reversi_render::score_chart_svg); it is put inline so that the
// current move is marked on it and a click on it jumps to that move.
async function loadChart(box) {
  const r = R;
  try {
    const resp = await fetch(`/api/games/${r.id}/chart.svg?lang=${lang()}`);
    if (!resp.ok) throw new Error(String(resp.status));
    const doc = new DOMParser().parseFromString(await resp.text(), 'image/svg+xml');
    const chart = document.importNode(doc.documentElement, true);
    if (R !== r || chart.nodeName !== 'svg') return;
    chart.removeAttribute('width'); chart.removeAttribute('height');
    chart.setAttribute('role', 'img');
    chart.setAttribute('aria-label', t('web-chart-alt'));
    chart.append(svg('line', { id: 'chart-cursor', y1: CHART.top, y2: CHART.top + CHART.height, class: 'chart-cursor' }));
    chart.addEventListener('click', ev => {
      const pt = chart.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
      const x = pt.matrixTransform(chart.getScreenCTM().inverse()).x;
      const n = r.analysis.moves.length;
      const i = Math.round((x - CHART.left) / CHART.width * n);
      if (i >= 1 && i <= n) step(r.analysis.moves[i - 1].ply);
    });
    box.replaceChildren(chart);
    r.chart = chart;
    moveChartCursor();
  } catch (e) { box.replaceChildren(el('p', { class: 'error' }, t('error-generic'))); }
}

// The plot area of score_chart_svg (crates/reversi-render/src/chart.rs), in its units.
const CHART = { left: 16, width: 158, top: 10, height: 66 };

function moveChartCursor() {
  if (!R || !R.chart || !R.analysis) return;
  const line = R.chart.querySelector('#chart-cursor');
  const moves = R.analysis.moves, n = moves.length;
  let i = 0;
  while (i < n && moves[i].ply <= R.ply) i++;
  const x = CHART.left + CHART.width * i / Math.max(n, 1);
  line.setAttribute('x1', x); line.setAttribute('x2', x);
}

export function replayKeys(ev) {
  if (!R || !R.data) return false;
  const k = { ArrowLeft: R.ply - 1, ArrowRight: R.ply + 1, Home: 0, End: R.data.moves.length }[ev.key];
  if (k === undefined) return false;
  ev.preventDefault();
  step(k);
  return true;
}
