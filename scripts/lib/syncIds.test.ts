import { describe, expect, it } from 'vitest';
import { checkSyncIds, citedIds, definedIds, describeProblems } from './syncIds';

const spec = `# The sync protocol

Ids by area: **L** pull, **P** push. A test cites L1 at the start of its title.

**L1.** No change is ever skipped (see P1 for writes).

**P1.** Every write may be replayed.
`;

describe('the rule ids SYNC.md defines', () => {
  it('are the bold ids that start a paragraph, not ids mentioned in prose', () => {
    expect(definedIds(spec)).toEqual(['L1', 'P1']);
  });
});

describe('the rule ids a test file cites', () => {
  it('are read from it, test and describe titles in any quotes, alone or comma-separated', () => {
    const source = [
      "it('L1: never skips', () => {});",
      'test("P1, P2: replays", async () => {});',
      'describe(`Q10,Q2: the queue`, () => {});',
      "test.describe('E1: events', () => {});",
      "it(\n  'C3: across lines',\n  () => {},\n);",
    ].join('\n');
    expect(citedIds(source)).toEqual(['L1', 'P1', 'P2', 'Q10', 'Q2', 'E1', 'C3']);
  });

  it('are only ids at the start of a title that a colon follows', () => {
    const source = [
      "it('never skips a change (L1)', () => {});",
      "it('L1 never skips', () => {});",
      "describe('rebase (C3, Q9)', () => {});",
      '// L4: a comment is no test',
      "expect(label).toBe('W1: not a title');",
    ].join('\n');
    expect(citedIds(source)).toEqual([]);
  });
});

describe('checking SYNC.md against the tests', () => {
  it('finds nothing wrong when every defined id is cited and every cited id is defined', () => {
    const problems = checkSyncIds(spec, [
      { path: 'src/a.test.ts', source: "it('L1: a', () => {});" },
      { path: 'e2e/b.spec.ts', source: "test('L1, P1: b', async () => {});" },
    ]);
    expect(describeProblems(problems)).toEqual([]);
  });

  it('fails on a defined id that no test cites', () => {
    const problems = checkSyncIds(spec, [{ path: 'src/a.test.ts', source: "it('L1: a', () => {});" }]);
    expect(problems.uncited).toEqual(['P1']);
    expect(describeProblems(problems)).toEqual(['P1 is defined in SYNC.md but no test title cites it']);
  });

  it('fails on a cited id that SYNC.md does not define, naming the files that cite it', () => {
    const problems = checkSyncIds(spec, [
      { path: 'src/a.test.ts', source: "it('L1, S4: a', () => {});" },
      { path: 'testkit/b.ts', source: "describe('S4: b', () => { it('P1: c', () => {}); });" },
    ]);
    expect(problems.unknown).toEqual([{ id: 'S4', files: ['src/a.test.ts', 'testkit/b.ts'] }]);
    expect(describeProblems(problems)).toEqual([
      'S4 is cited by src/a.test.ts, testkit/b.ts but SYNC.md does not define it',
    ]);
  });

  it('fails on an id SYNC.md defines twice', () => {
    const twice = `${spec}\n**P1.** Again.\n`;
    const problems = checkSyncIds(twice, [{ path: 'src/a.test.ts', source: "it('L1, P1: a', () => {});" }]);
    expect(describeProblems(problems)).toEqual(['P1 is defined more than once in SYNC.md']);
  });
});
