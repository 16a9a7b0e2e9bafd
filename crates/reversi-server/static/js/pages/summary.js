// How a game is named in lists (home, archive): its players and its result.
import { t } from '../i18n.js';
import { strengthText } from '../strength.js';

/** Who plays: "● person · ○ computer, Club (level 8)". */
export function playerName(kind, level) {
  return kind === 'ai' ? t('web-player-computer', { strength: strengthText(level) }) : t('web-player-person');
}

export const playerLine = g => g.mode === 'online'
  ? `● ${g.black_name ?? t('web-player-guest')} · ○ ${g.white_name ?? t('web-player-guest')}`
  : `● ${playerName(g.black, g.level)} · ○ ${playerName(g.white, g.level)}`;

/** The result of a listed game, or its state while it is played. */
export function resultLine(g) {
  switch (g.status) {
    case 'playing': return t('web-status-playing');
    case 'aborted': return t('web-status-aborted');
    case 'abandoned': return t('web-status-abandoned');
    default:
      return g.winner
        ? t('web-result-won', { color: g.winner, black: g.black_count, white: g.white_count })
        : t('web-result-draw', { black: g.black_count, white: g.white_count });
  }
}

/** The result of a game with its ending: "White won 33–31: Black resigned". */
export function resultText(g) {
  const r = g.result;
  if (!r) return resultLine(g);
  const score = r.winner
    ? t('web-result-won', { color: r.winner, black: r.black, white: r.white })
    : t('web-result-draw', { black: r.black, white: r.white });
  if (r.flagged) return t('web-result-time', { result: score, color: r.flagged });
  if (r.resigned) return t(r.ending === 'left' ? 'web-result-left' : 'web-result-resigned', { result: score, color: r.resigned });
  return score;
}
