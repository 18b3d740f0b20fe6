/**
 * The filter language of saved views and `GET /api/items?filter=` (ARCHITECTURE §4 'Saved views and
 * the filter language'): one parser, evaluator and printer for the device and the server.
 */
export * from './ast';
export {
  campaignLookup,
  evaluate,
  type FilterContext,
  type FilterItem,
  type FilterPerson,
  peopleNamed,
} from './evaluate';
export { parse } from './parse';
export { print } from './print';
export { folded, personMatches, readFilterDate, searchWords } from './words';

/** The grammar version a saved view stores beside its query. */
export const FILTER_GRAMMAR = 1;

/** A saved query brought to the current grammar: version 1 is the first, so it passes as is. */
export function migrateQuery(query: string, _fromGrammar: number): string {
  // A later grammar rewrites older queries here, one step per version, before they are parsed.
  return query;
}
