import { importsOf } from './boundaries';

/**
 * The server's layers (ARCHITECTURE §6 'Side effects of a server write are registered, not imported'):
 * `db` < `http` < resources < `app`. An import may go down or stay level, never up, `import type`
 * included (a layer that names an upper layer's types still knows of it); and no server file may reach
 * itself again through its imports, whatever the layers, so resources importing one another must not
 * close a circle.
 *
 * Where the files outside those four folders stand:
 * - `src/server/env.ts` (the configuration read from the environment) is `config`, under `db`: every
 *   layer may read the config's types, and it imports only src/shared.
 * - `src/server/index.ts` (the process: starts the app, stops it on a signal) is `app`, with app.ts.
 * - `src/server/openapi/` (the route documentation every routes.ts writes, and the reference page's
 *   plugin, which reads the tokens' policy) is a resource folder like any other.
 * - Any other folder under src/server is a resource; any other file at its root is one too.
 * - Tests (`*.test.ts`) and testkit/ stand outside: a test builds the whole app, and testkit/ is out of
 *   src/server's reach anyway (scripts/lib/boundaries.ts).
 */
export const SERVER_LAYERS = ['config', 'db', 'http', 'resource', 'app'] as const;
export type ServerLayer = (typeof SERVER_LAYERS)[number];

/** The layer of a server source file (a path from the repository root), or null for any other file. */
export function serverLayerOf(file: string): ServerLayer | null {
  if (!file.startsWith('src/server/') || /\.test\.tsx?$/.test(file)) return null;
  const parts = file.slice('src/server/'.length).split('/');
  if (parts.length === 1) {
    if (parts[0] === 'env.ts') return 'config';
    if (parts[0] === 'app.ts' || parts[0] === 'index.ts') return 'app';
    return 'resource';
  }
  if (parts[0] === 'db') return 'db';
  if (parts[0] === 'http') return 'http';
  return 'resource';
}

/** Why a server file may not import another, or null when the import goes down or stays level. */
export function serverImportProblem(file: string, target: string): string | null {
  const from = serverLayerOf(file);
  const to = serverLayerOf(target);
  if (from === null || to === null) return null;
  if (SERVER_LAYERS.indexOf(to) <= SERVER_LAYERS.indexOf(from)) return null;
  return `the server's ${from} layer may not import its ${to} layer (${SERVER_LAYERS.join(' < ')}; scripts/lib/serverBoundaries.ts)`;
}

/** The circles of a graph (file → the files it imports): each as its files, once, in a stable order. */
export function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components, iterative: a long chain of imports must not overflow.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) circles.push(component.sort());
    }
  }
  return circles;
}

/**
 * Every server boundary problem of these files: each upward import, and each circle of imports among
 * server files (tests left out). `read` gives a file's text, `fileOf` a relative import's file.
 */
export function serverBoundaryProblems(
  files: readonly string[],
  read: (file: string) => string,
  fileOf: (resolved: string) => string,
): string[] {
  const problems: string[] = [];
  const graph = new Map<string, string[]>();
  for (const file of files) {
    if (serverLayerOf(file) === null) continue;
    const targets: string[] = [];
    for (const { specifier, resolved } of importsOf(file, read(file))) {
      if (!specifier.startsWith('.')) continue;
      const target = fileOf(resolved);
      if (serverLayerOf(target) === null) continue;
      targets.push(target);
      const problem = serverImportProblem(file, target);
      if (problem) problems.push(`${file} imports ${specifier}: ${problem}`);
    }
    graph.set(file, targets);
  }
  for (const circle of circlesOf(graph))
    problems.push(`a circle of server imports: ${circle.join(', ')} (scripts/lib/serverBoundaries.ts)`);
  return problems;
}
