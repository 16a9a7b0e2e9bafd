// How a game is named in lists (home, archive): its players and its result; and the preset
// moves a record shows before the game's own.
import { t } from '../i18n.js';
import { el } from '../dom.js';
import { strengthText } from '../strength.js';

/** Who plays: "● person · ○ computer, Club (level 8)". */
export function playerName(kind, level) {
  return kind === 'ai' ? t('web-player-computer', { strength: strengthText(level) }) : t('web-player-person');
}

export const playerLine = g => g.mode === 'online'
  ? `● ${g.black_name ?? t('web-player-guest')} · ○ ${g.white_name ?? t('web-player-guest')}`
  : `● ${playerName(g.black, g.level)} · ○ ${playerName(g.white, g.level)}`;

/** "Black 13 – 51 White": each score next to its colour, so the order never misleads. */
export const scoreText = (black, white) => t('web-result-score', { black, white });

/** "White won", "You lost on time", "Draw": the outcome as `you` (the viewer's one colour, if
 * any) sees it, and how the game ended. */
export function outcomeText(winner, how = 'none', you = null) {
  const who = !winner ? 'draw' : you ? (winner === you ? 'you-won' : 'you-lost') : winner;
  return t('web-outcome', { who, how });
}

/** The result of a listed game, or its state while it is played. */
export function resultLine(g) {
  switch (g.status) {
    case 'playing': return t('web-status-playing');
    case 'aborted': return t('web-status-aborted');
    case 'abandoned': return t('web-status-abandoned');
    case 'closed': return t('web-status-closed');
    default: return `${outcomeText(g.winner)} · ${scoreText(g.black_count, g.white_count)}`;
  }
}

/** How a finished game ended: `time`, `resigned`, `left` or `none` (the board was full or
 * blocked). */
export function endingOf(r) {
  if (!r) return 'none';
  // An equal count won by the box edition's rule (the player who moved second wins a tie).
  if (r.winner && r.black === r.white && !r.flagged && !r.resigned) return 'tie';
  if (r.flagged) return 'time';
  if (r.resigned) return r.ending === 'left' ? 'left' : 'resigned';
  return 'none';
}

/** The result of a game as its viewer sees it: "You lost on time · Black 31 – 33 White". `you`:
 * the viewer's colour when they hold exactly one seat. */
export function resultText(g, you = null) {
  const r = g.result;
  if (!r) return resultLine(g);
  return `${outcomeText(r.winner, endingOf(r), you)} · ${scoreText(r.black, r.white)}`;
}

/** The rows of a move record for the moves the variant plays before the game (XOT's line):
 * numbered as the record goes on, shown apart and not clickable (the game starts after them). */
export function presetRows(preset) {
  const rows = [el('tr', { class: 'preset-label' }, el('td', { colspan: 3 }, t('web-preset-moves')))];
  for (let i = 0; i < preset.length; i += 2) {
    rows.push(el('tr', { class: 'preset' }, el('th', { scope: 'row' }, String(i / 2 + 1)),
      ...[i, i + 1].map(k => el('td', {}, preset[k] ? el('span', { class: 'mv preset-mv' }, preset[k]) : null))));
  }
  return rows;
}
