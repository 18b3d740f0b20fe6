import { describe, expect, it } from 'vitest';
import { importProblem, layerOf } from './boundaries';

const eager = (target: string) => ({ target, typeOnly: false });

describe('the module boundaries (an allow-list)', () => {
  it('puts each file in its layer', () => {
    expect(layerOf('src/shared/item.ts')).toBe('shared');
    expect(layerOf('src/client/components/ui/Button.tsx')).toBe('ui');
    expect(layerOf('src/client/items/ItemRow.tsx')).toBe('feature:items');
    expect(layerOf('src/client/data/store/db.ts')).toBe('data');
    expect(layerOf('src/client/items/ItemRow.test.tsx')).toBe('test');
  });

  it('passes what the list names: a feature through the door, a list onto the item rows, anyone onto shared', () => {
    expect(importProblem('src/client/lists/queries.ts', eager('src/client/data/reads/live.ts'))).toBeNull();
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

  it('lets tests and tooling reach anything', () => {
    expect(
      importProblem('src/client/items/ItemRow.test.tsx', eager('testkit/client/renderWithApp.tsx')),
    ).toBeNull();
    expect(importProblem('bench/scale.ts', eager('src/client/data/store/db.ts'))).toBeNull();
  });
});
