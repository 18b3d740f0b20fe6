import { describe, expect, it } from 'vitest';
import { FILTER_GRAMMAR, parse } from './index';
import { fromGrammar0, migrateSavedQuery } from './migrations';

describe('saved queries from older grammars', () => {
  it('grammar 0 spellings become grammar 1 terms at the start of a term only', () => {
    expect(fromGrammar0('label:ops')).toBe('+ops');
    expect(fromGrammar0('due<friday & due > 2030-01-01')).toBe('due before: friday & due after: 2030-01-01');
    expect(fromGrammar0('(priority:1 | priority:4) & !label: home')).toBe('(p1 | p4) & !+home');
    expect(fromGrammar0('LABEL:Ops')).toBe('+Ops');
  });

  it('quoted values and words inside a term are left as written', () => {
    expect(fromGrammar0('label:"due<x" & #"label:y"')).toBe('+"due<x" & #"label:y"');
    expect(fromGrammar0('@Ann label:x')).toBe('@Ann label:x');
  });

  it('every migrated example parses in the current grammar; a current query passes unchanged', () => {
    for (const old of ['label:ops & due<tomorrow', 'priority:2 | due>next monday', '!(label:"Week 1")']) {
      const now = migrateSavedQuery(old, 0);
      expect(parse(now).ok, now).toBe(true);
    }
    expect(migrateSavedQuery('label: x', FILTER_GRAMMAR)).toBe('label: x');
    expect(migrateSavedQuery('+x & p1', FILTER_GRAMMAR)).toBe('+x & p1');
  });
});
