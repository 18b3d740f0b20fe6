/**
 * ARCHITECTURE §6 'Side effects of a server write are registered': every server resource has one
 * shape, `routes.ts` (HTTP, zod, its OpenAPI doc) + `store.ts` (SQL) + `service.ts` (rules across
 * stores). A routes.ts that writes SQL itself (a drizzle `sql` tag, `rows(`, a query builder or
 * `execute` on a database handle, a raw `pool.query`) is a problem.
 */

const SQL_SHAPES: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /(?<![\w$.])sql\s*`/g, what: 'a sql`…` template' },
  { pattern: /(?<![\w$.])rows\s*[<(]/g, what: 'rows(…)' },
  {
    pattern:
      /(?<![\w$])(?:db|tx|trx|executor|database(?:\.db)?)\s*\.\s*(?:execute|select|selectDistinct|insert|update|delete|query)\s*[<(]/g,
    what: 'a query on a database handle',
  },
  { pattern: /(?<![\w$])(?:pool|client)\s*\.\s*query\s*[<(]/g, what: 'a raw pool.query' },
];

/** The server folder of a routes.ts (`src/server/<folder>/routes.ts`), or null for any other file. */
export function routesFolder(file: string): string | null {
  return /^src\/server\/(.+)\/routes\.ts$/.exec(file)?.[1] ?? null;
}

/** The lines of `text` (a file at `file`) where a server routes.ts writes SQL itself. */
export function routesSqlProblems(file: string, text: string): string[] {
  const folder = routesFolder(file);
  if (folder === null) return [];
  const problems: string[] = [];
  for (const { pattern, what } of SQL_SHAPES)
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      problems.push(`${file}:${line} holds SQL (${what}): it belongs in src/server/${folder}/store.ts`);
    }
  return problems.sort((a, b) => lineOf(a) - lineOf(b));
}

const lineOf = (problem: string) => Number(/:(\d+) /.exec(problem)?.[1] ?? 0);
