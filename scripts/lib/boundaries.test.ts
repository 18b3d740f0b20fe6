import { describe, expect, it } from 'vitest';
import { importProblem, layerOf } from './boundaries';

const eager = (target: string) => ({ target, typeOnly: false });

describe('the module boundaries (an allow-list)', () => {
  it('lets the benchmarks reach the data layer through their one surface only', () => {
    expect(importProblem('bench/lib/appData.ts', eager('src/client/data/store/db.ts'))).toBeNull();
    expect(importProblem('bench/home10k.ts', eager('bench/lib/appData.ts'))).toBeNull();
    expect(importProblem('bench/home10k.ts', eager('src/client/data/store/listKeys.ts'))).toMatch(
      /bench\/lib\/appData\.ts only/,
    );
    expect(
      importProblem('bench/browser/entry.ts', { target: 'src/client/data/store/types.ts', typeOnly: true }),
    ).toMatch(/appData/);
    expect(importProblem('bench/home10k.ts', eager('src/shared/item.ts'))).toBeNull();
  });

  it('puts each file in its layer', () => {
    expect(layerOf('src/shared/item.ts')).toBe('shared');
    expect(layerOf('src/client/components/ui/Button.tsx')).toBe('ui');
    expect(layerOf('src/client/items/ItemRow.tsx')).toBe('feature:items');
    expect(layerOf('src/client/data/store/db.ts')).toBe('data:store');
    expect(layerOf('src/client/data/reads/live.ts')).toBe('data:reads');
    expect(layerOf('src/client/data/items/itemsRepository.ts')).toBe('data:items');
    expect(layerOf('src/client/data/client.ts')).toBe('data:composition');
    expect(layerOf('src/client/data/live.ts')).toBe('data:composition');
    expect(layerOf('src/client/data/lazy.ts')).toBe('data:lazy');
    expect(layerOf('src/client/items/ItemRow.test.tsx')).toBe('test');
  });

  it('passes what the list names: a feature through the door, a list onto the item rows, anyone onto shared', () => {
    expect(importProblem('src/client/lists/queries.ts', eager('src/client/data/live.ts'))).toBeNull();
    expect(importProblem('src/client/items/mutations.ts', eager('src/client/app/door.tsx'))).toBeNull();
    expect(
      importProblem('src/client/lists/LifecyclePage.tsx', eager('src/client/items/ItemList.tsx')),
    ).toBeNull();
    expect(importProblem('src/client/data/store/db.ts', eager('src/shared/item.ts'))).toBeNull();
    expect(
      importProblem('src/client/preferences/queries.ts', {
        target: 'src/client/data/items/undoStack.ts',
        typeOnly: true,
      }),
    ).toBeNull();
  });

  it('fails an import the list does not name', () => {
    // A feature reaching past the door into the database or the repository.
    expect(importProblem('src/client/items/ItemRow.tsx', eager('src/client/data/store/db.ts'))).toMatch(
      /may not import src\/client\/data\/store\/db/,
    );
    expect(importProblem('src/client/home/HomePage.tsx', eager('dexie'))).toMatch(/package dexie/);
    // A primitive that knows a feature, a feature the list does not pair, the items feature on a page.
    expect(
      importProblem('src/client/components/ui/Button.tsx', eager('src/client/items/itemStyle.ts')),
    ).not.toBeNull();
    expect(
      importProblem('src/client/items/ItemRow.tsx', eager('src/client/campaigns/queries.ts')),
    ).not.toBeNull();
    // Framework-free shared code, the server and the client apart, test tooling out of src.
    expect(importProblem('src/shared/item.ts', eager('react'))).not.toBeNull();
    expect(importProblem('src/server/app.ts', eager('src/client/data/store/db.ts'))).not.toBeNull();
    expect(importProblem('src/client/items/ItemRow.tsx', eager('testkit/client/items.ts'))).not.toBeNull();
  });

  it('holds the layers inside data/: each imports only the layers under it', () => {
    const data = (file: string) => `src/client/data/${file}`;
    const allowed: [string, string, boolean][] = [
      // [from, to, type-only]
      ['store/sideEffects.ts', 'store/searchLog.ts', false],
      ['store/db.ts', '../shared/item.ts', false],
      ['net/tabs.ts', 'net/apiClient.ts', false],
      ['changes/applyLocalChange.ts', 'store/rawWrites.ts', false],
      ['changes/applyLocalChange.ts', 'sync/queue.ts', false],
      ['sync/pull.ts', 'store/db.ts', false],
      ['sync/push.ts', 'net/apiClient.ts', false],
      ['sync/context.ts', 'changes/applyLocalChange.ts', true],
      ['sync/lazyEngine.ts', 'lazy.ts', false],
      ['reads/live.ts', 'store/db.ts', false],
      ['reads/live.ts', 'changes/localEcho.ts', false],
      ['items/itemsRepository.ts', 'changes/applyLocalChange.ts', false],
      ['items/itemsRepository.ts', 'reads/itemQueries.ts', false],
      ['items/itemsRepository.ts', 'sync/settle.ts', false],
      ['transfer/dataTransfer.ts', 'items/itemsRepository.ts', true],
      ['commands/items.ts', 'items/itemsRepository.ts', false],
      ['client.ts', 'sync/syncService.ts', false],
      ['live.ts', 'page.ts', false],
    ];
    for (const [from, to, typeOnly] of allowed) {
      const target = to.startsWith('../') ? `src/${to.slice(3)}` : data(to);
      expect(importProblem(data(from), { target, typeOnly }), `${from} -> ${to}`).toBeNull();
    }
    const upward: [string, string, boolean][] = [
      // The schema names a feature's store; the store reaches for the funnel or the reads.
      ['store/db.ts', 'history/deviceHistory.ts', false],
      ['store/sideEffects.ts', 'changes/applyLocalChange.ts', false],
      ['store/storage.ts', 'service.ts', true],
      // net/ and store/ stand side by side: neither names the other.
      ['net/tabs.ts', 'store/db.ts', false],
      ['store/queueCounts.ts', 'net/tabs.ts', true],
      // The funnel calls no feature and no sync module but the queue's enqueue.
      ['changes/applyLocalChange.ts', 'history/deviceHistory.ts', false],
      ['changes/localEcho.ts', 'sync/settle.ts', true],
      ['changes/undoStack.ts', 'items/itemsRepository.ts', true],
      // sync/ loads no funnel (it is handed it) and names no feature.
      ['sync/conflicts.ts', 'changes/applyLocalChange.ts', false],
      ['sync/push.ts', 'items/itemsRepository.ts', false],
      ['sync/pull.ts', 'search/search.ts', false],
      // The reads know no feature, no sync module and no composition.
      ['reads/live.ts', 'page.ts', false],
      ['reads/live.ts', 'client.ts', true],
      ['reads/live.ts', 'contacts/mutuals.ts', false],
      ['reads/itemQueries.ts', 'sync/tempIds.ts', false],
      ['reads/live.ts', 'changes/applyLocalChange.ts', false],
      // A feature loads no command, no composition, and another feature only where the list says.
      ['items/itemsRepository.ts', 'commands/items.ts', false],
      ['search/searchService.ts', 'service.ts', true],
      ['items/itemsRepository.ts', 'comments/localComments.ts', false],
      // The commands go through features, never the composition.
      ['commands/items.ts', 'client.ts', false],
    ];
    for (const [from, to, typeOnly] of upward) {
      expect(importProblem(data(from), { target: data(to), typeOnly }), `${from} -> ${to}`).toMatch(
        /may not import/,
      );
    }
  });

  it('gives a data folder or root file the lists do not know no imports until they say what', () => {
    expect(importProblem('src/client/data/drafts/x.ts', eager('src/client/data/store/db.ts'))).toMatch(
      /may not import/,
    );
    expect(importProblem('src/client/data/wiring.ts', eager('src/client/data/store/db.ts'))).toMatch(
      /may not import/,
    );
    expect(importProblem('src/client/data/store/db.ts', eager('src/client/data/drafts/x.ts'))).toMatch(
      /may not import/,
    );
  });

  it('refuses the upward imports inside data/ that issue 49 removed', () => {
    // Each command namespace declares its own context: the map names no client.
    expect(importProblem('src/client/data/commands/map.ts', eager('src/client/data/client.ts'))).toMatch(
      /may not import/,
    );
    // sync/ names no feature: it dispatches by queue kind through the registry the features fill.
    expect(
      importProblem('src/client/data/sync/push.ts', eager('src/client/data/comments/localComments.ts')),
    ).toMatch(/may not import/);
    expect(
      importProblem('src/client/data/sync/push.ts', eager('src/client/data/comments/timelineRead.ts')),
    ).toMatch(/may not import/);
    expect(
      importProblem('src/client/data/sync/conflicts.ts', eager('src/client/data/comments/localComments.ts')),
    ).toMatch(/may not import/);
  });

  it('lets a screen load the live reads only through their door, data/live', () => {
    expect(importProblem('src/client/items/queries.ts', eager('src/client/data/live.ts'))).toBeNull();
    expect(importProblem('src/client/items/queries.ts', eager('src/client/data/reads/live.ts'))).toMatch(
      /may not import/,
    );
    expect(
      importProblem('src/client/items/queries.ts', {
        target: 'src/client/data/reads/live.ts',
        typeOnly: true,
      }),
    ).toBeNull();
  });

  it('lets tests and tooling reach anything', () => {
    expect(
      importProblem('src/client/items/ItemRow.test.tsx', eager('testkit/client/renderWithApp.tsx')),
    ).toBeNull();
    expect(importProblem('bench/scale.ts', eager('src/server/db/client.ts'))).toBeNull();
  });
});
