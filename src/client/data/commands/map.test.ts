import { describe, expect, it } from 'vitest';
import { NAMESPACES, type Namespace } from './map';

describe('the command map', () => {
  it('names every handler after the namespace that registers it, and no name twice', async () => {
    const seen = new Map<string, Namespace>();
    const misplaced: string[] = [];
    const twice: string[] = [];
    for (const [namespace, load] of Object.entries(NAMESPACES) as [Namespace, () => Promise<object>][]) {
      const handlers = await load();
      const names = Object.keys(handlers);
      expect(names.length, `${namespace} registers no command`).toBeGreaterThan(0);
      for (const name of names) {
        if (!name.startsWith(`${namespace}.`)) misplaced.push(`${name} (in ${namespace})`);
        const earlier = seen.get(name);
        if (earlier) twice.push(`${name} (${earlier} and ${namespace})`);
        seen.set(name, namespace);
      }
    }
    expect(misplaced).toEqual([]);
    expect(twice).toEqual([]);
  });
});
