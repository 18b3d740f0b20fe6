import { describe, expect, it } from 'vitest';
import { routesFolder, routesSqlProblems } from './routesSql';

const file = 'src/server/webhooks/routes.ts';

describe('the check of SQL in a server routes.ts', () => {
  it('refuses a sql tag, rows(), a query builder or execute on a handle, and a raw pool.query', () => {
    const text = [
      'const where = sql`w.id = 1`;',
      'const found = await rows<{ n: number }>(db, where);',
      'await tx.execute(where);',
      'const all = await db.select().from(webhooks);',
      'await app.database.db.insert(webhooks).values(row);',
      'await db.update(webhooks).set({ enabled: false });',
      'await tx.delete(webhooks);',
      "await pool.query('SELECT 1');",
    ].join('\n');
    const problems = routesSqlProblems(file, text);
    expect(problems).toHaveLength(8);
    expect(problems[0]).toContain('webhooks/routes.ts:1 holds SQL (a sql`…` template)');
    expect(problems[1]).toContain(':2 holds SQL (rows(…))');
    expect(problems[7]).toContain(':8 holds SQL (a raw pool.query)');
    expect(problems[7]).toContain('src/server/webhooks/store.ts');
  });

  it('allows HTTP and calls into the store: route methods, transactions, cache deletes', () => {
    const text = [
      "api.delete('/webhooks/:id', { schema }, async (request) => {",
      '  await db.transaction((tx) => deleteWebhook(tx, id));',
      '  app.sessionCache.delete(tokenSessionId(hash));',
      '  const found = await listWebhooks(db, user.id);',
      '  return { rows: found.map(webhookJson), mysql: 1 };',
      '});',
    ].join('\n');
    expect(routesSqlProblems(file, text)).toEqual([]);
  });

  it('looks only at server routes.ts files, nested folders included', () => {
    const text = 'await rows(db, sql`SELECT 1`);';
    expect(routesSqlProblems('src/server/webhooks/store.ts', text)).toEqual([]);
    expect(routesSqlProblems('src/client/routes.ts', text)).toEqual([]);
    expect(routesSqlProblems('src/server/items/routes.ts', text)).toHaveLength(2);
    expect(routesFolder('src/server/sync/routes.ts')).toBe('sync');
    expect(routesFolder('src/server/items/trash/routes.ts')).toBe('items/trash');
    expect(routesFolder('src/server/items/trashRoutes.ts')).toBeNull();
  });
});
