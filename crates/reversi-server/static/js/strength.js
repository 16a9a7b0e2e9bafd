// The computer's strengths by name, each a level of the engine (1–30, README "Levels").
import { t } from './i18n.js';

/** [name, level], weakest first. */
export const STRENGTHS = [
  ['beginner', 1], ['novice', 3], ['casual', 5], ['club', 8],
  ['strong', 12], ['expert', 16], ['master', 20], ['champion', 30],
];

/** The name of the strongest named strength at or below `level`. */
export function strengthKey(level) {
  let key = STRENGTHS[0][0];
  for (const [k, l] of STRENGTHS) if (l <= level) key = k;
  return key;
}

/** "Club (level 8)". */
export const strengthText = level => t('web-strength-level', { strength: t('web-strength-' + strengthKey(level)), level });
