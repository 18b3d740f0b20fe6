// The pure half of scripts/checkSyncIds.ts: which rule ids SYNC.md defines, which ids tests cite,
// and what disagrees. A rule is defined by a paragraph that starts with its bold id (`**L1.**`); a
// test cites ids when its it/test/describe title starts with them, comma-separated, then a colon
// (`it('L1: …')`, `test('P1, P2: …')`).

const DEFINED = /^\*\*([A-Z][0-9]+)\.\*\*/gm;
const CITING = /\b(?:it|test|describe)(?:\.[A-Za-z]+)*\(\s*(['"`])([A-Z][0-9]+(?:\s*,\s*[A-Z][0-9]+)*)\s*:/g;

/** The ids a spec defines, in order (an id defined twice appears twice). */
export function definedIds(spec: string): string[] {
  return [...spec.matchAll(DEFINED)].map((match) => match[1]!);
}

/** The ids a test file's titles cite, in order. */
export function citedIds(source: string): string[] {
  return [...source.matchAll(CITING)].flatMap((match) => match[2]!.split(',').map((id) => id.trim()));
}

export interface SourceFile {
  path: string;
  source: string;
}

export interface SyncIdProblems {
  /** Ids the spec defines that no test cites. */
  uncited: string[];
  /** Ids tests cite that the spec does not define, with the files citing them. */
  unknown: { id: string; files: string[] }[];
  /** Ids the spec defines more than once. */
  duplicated: string[];
}

/** What disagrees between the spec and the test files. */
export function checkSyncIds(spec: string, tests: SourceFile[]): SyncIdProblems {
  const defined = definedIds(spec);
  const known = new Set(defined);
  const duplicated = [...new Set(defined.filter((id, index) => defined.indexOf(id) !== index))];
  const citedBy = new Map<string, string[]>();
  for (const file of tests) {
    for (const id of new Set(citedIds(file.source))) citedBy.set(id, [...(citedBy.get(id) ?? []), file.path]);
  }
  return {
    uncited: [...known].filter((id) => !citedBy.has(id)),
    unknown: [...citedBy]
      .filter(([id]) => !known.has(id))
      .map(([id, files]) => ({ id, files }))
      .sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true })),
    duplicated,
  };
}

/** One line per problem; none when the spec and the tests agree. */
export function describeProblems(problems: SyncIdProblems): string[] {
  return [
    ...problems.duplicated.map((id) => `${id} is defined more than once in SYNC.md`),
    ...problems.uncited.map((id) => `${id} is defined in SYNC.md but no test title cites it`),
    ...problems.unknown.map(
      ({ id, files }) => `${id} is cited by ${files.join(', ')} but SYNC.md does not define it`,
    ),
  ];
}
