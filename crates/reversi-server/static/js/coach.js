// The coach's sentences (reversi_engine::coach): the server sends each fact as a Fluent
// message of the locale files and its arguments, and the page says it in its language.
import { t } from './i18n.js';

/** The sentences of `facts` ([{id, args}…]), in order. */
export const coachText = facts => facts.map(f => t(f.id, f.args));
