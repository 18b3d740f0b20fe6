import { afterEach, expect } from 'vitest';
import { checkEveryResponse, responseMismatches } from '../src/server/openapi/responseCheck';

/**
 * A vitest setup file: every app a test builds checks its answers against the routes' documented
 * schemas (src/server/openapi/responseCheck.ts), and a test whose requests got an answer that does
 * not match fails when it ends, naming the route and the problem. So the whole integration suite
 * holds the OpenAPI document to what the server really sends.
 */
checkEveryResponse();

afterEach(() => {
  const found = responseMismatches.splice(0);
  expect(
    found.map((m) => `${m.method} ${m.route} → ${m.problem}`),
    'answers that do not match their documented schema (src/shared/apiSchemas.ts)',
  ).toEqual([]);
});
