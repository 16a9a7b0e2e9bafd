// The coach's sentences (reversi_engine::coach): the server sends each fact as a Fluent
// message of the locale files and its arguments, and the page says it in its language, with a
// link to the lesson (/learn) that explains it.
import { t } from './i18n.js';
import { el, link } from './dom.js';

/** The lesson that teaches each kind of remark. */
export const COACH_LESSONS = {
  'coach-takes-corner': 'corners',
  'coach-misses-corner': 'corners',
  'coach-gives-corner': 'corners',
  'coach-opens-corner': 'x-c-squares',
  'coach-x-square': 'x-c-squares',
  'coach-c-square': 'x-c-squares',
  'coach-mobility': 'mobility',
  'coach-own-mobility': 'mobility',
  'coach-restricts': 'mobility',
  'coach-pass': 'pass',
  'coach-wipeout': 'end',
  'coach-frontier': 'quiet',
  'coach-quiet': 'quiet',
  'coach-stable': 'stable',
  'coach-best-stable': 'stable',
  'coach-parity': 'parity',
  'coach-breaks-parity': 'parity',
  'coach-wall': 'edges',
  'coach-spends-reserve': 'tempo',
  'coach-leaves-centre': 'centre',
  'coach-loss': 'counting',
};

/** The sentences of `facts` ([{id, args}…]), in order. */
export const coachText = facts => facts.map(f => t(f.id, f.args));

/** The sentences of `facts` as list items, each with a link to its lesson. */
export const coachItems = facts => facts.map(f => el('li', {}, t(f.id, f.args),
  COACH_LESSONS[f.id] ? [' ', link('/learn/' + COACH_LESSONS[f.id], t('web-coach-lesson'), { class: 'lesson-link', title: t('web-coach-lesson') })] : null));
