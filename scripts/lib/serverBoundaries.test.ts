import { describe, expect, it } from 'vitest';
import { circlesOf, serverBoundaryProblems, serverImportProblem, serverLayerOf } from './serverBoundaries';

describe("the server's layers (db < http < resources < app)", () => {
  it('puts each server file in its layer, and tests and other files in none', () => {
    expect(serverLayerOf('src/server/env.ts')).toBe('config');
    expect(serverLayerOf('src/server/db/client.ts')).toBe('db');
    expect(serverLayerOf('src/server/http/idempotency.ts')).toBe('http');
    expect(serverLayerOf('src/server/webhooks/events.ts')).toBe('resource');
    expect(serverLayerOf('src/server/openapi/routeDoc.ts')).toBe('resource');
    expect(serverLayerOf('src/server/app.ts')).toBe('app');
    expect(serverLayerOf('src/server/index.ts')).toBe('app');
    expect(serverLayerOf('src/server/http/idempotency.test.ts')).toBeNull();
    expect(serverLayerOf('testkit/server.ts')).toBeNull();
    expect(serverLayerOf('src/shared/item.ts')).toBeNull();
  });

  it('passes an import that goes down or stays level', () => {
    expect(serverImportProblem('src/server/http/idempotency.ts', 'src/server/db/client.ts')).toBeNull();
    expect(
      serverImportProblem('src/server/comments/service.ts', 'src/server/http/idempotency.ts'),
    ).toBeNull();
    expect(serverImportProblem('src/server/comments/service.ts', 'src/server/webhooks/events.ts')).toBeNull();
    expect(serverImportProblem('src/server/app.ts', 'src/server/webhooks/routes.ts')).toBeNull();
    expect(serverImportProblem('src/server/db/client.ts', 'src/server/env.ts')).toBeNull();
  });

  it('fails an upward import: db onto http or a resource, http onto a resource, a resource onto the app', () => {
    expect(serverImportProblem('src/server/db/client.ts', 'src/server/http/errors.ts')).toMatch(
      /db layer may not import its http layer/,
    );
    expect(serverImportProblem('src/server/db/client.ts', 'src/server/items/queries.ts')).toMatch(
      /db layer may not import its resource layer/,
    );
    expect(serverImportProblem('src/server/http/idempotency.ts', 'src/server/webhooks/events.ts')).toMatch(
      /http layer may not import its resource layer/,
    );
    expect(serverImportProblem('src/server/items/routes.ts', 'src/server/app.ts')).toMatch(
      /resource layer may not import its app layer/,
    );
    expect(serverImportProblem('src/server/env.ts', 'src/server/db/client.ts')).toMatch(/config layer/);
  });

  it('finds every circle of imports once, and none in a tree', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'd']],
      ['c', ['a']],
      ['d', ['e']],
      ['e', []],
      ['f', ['f']],
    ]);
    expect(circlesOf(graph)).toEqual([['a', 'b', 'c'], ['f']]);
    expect(
      circlesOf(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it("names the funnel's old four-file circle, and an import type upward (they load nothing, yet still know the layer above)", () => {
    const texts: Record<string, string> = {
      'src/server/http/idempotency.ts': "import { writeWebhookEvents } from '../webhooks/events';",
      'src/server/webhooks/events.ts': "import { commentJson } from '../comments/service';",
      'src/server/comments/service.ts':
        "import { runWrite } from '../http/idempotency';\nimport type { X } from '../app';",
      'src/server/app.ts': "import { commentRoutes } from './comments/service';",
    };
    const problems = serverBoundaryProblems(
      Object.keys(texts),
      (file) => texts[file] ?? '',
      (resolved) => `${resolved}.ts`,
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /^src\/server\/http\/idempotency\.ts imports \.\.\/webhooks\/events: .*http layer/,
      ),
      expect.stringMatching(
        /^src\/server\/comments\/service\.ts imports \.\.\/app: .*resource layer may not/,
      ),
      expect.stringMatching(/^a circle of server imports: /),
    ]);
    expect(problems.at(-1)).toContain(
      'src/server/app.ts, src/server/comments/service.ts, src/server/http/idempotency.ts, src/server/webhooks/events.ts',
    );
  });
});
