import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { patternSource, ROUTE_TABLE } from './routeTable';

const PATHS = [
  '/',
  '',
  '/queue',
  '/queue/',
  '/QUEUE',
  '/campaigns',
  '/campaigns/12',
  '/campaigns/-3/',
  '/campaigns/1/x',
  '/tasks/7',
  '/tasks',
  '/login',
  '/loginx',
  '/nowhere/deep',
];

describe('route patterns for the build-time preloads', () => {
  it('match exactly the paths react-router matches', () => {
    for (const { path } of ROUTE_TABLE) {
      if (path === '*') continue;
      for (const candidate of PATHS) {
        const routerMatches = matchPath(path, candidate || '/') !== null;
        expect(new RegExp(patternSource(path), 'i').test(candidate || '/'), `${path} vs ${candidate}`).toBe(
          routerMatches,
        );
      }
    }
  });

  it('end with the catch-all, so every path has a screen', () => {
    expect(ROUTE_TABLE.at(-1)?.path).toBe('*');
    expect(new RegExp(patternSource('*')).test('/anything/at/all')).toBe(true);
  });
});
