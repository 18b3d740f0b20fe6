import path from 'node:path';

/**
 * The module boundaries of ARCHITECTURE.md §1 and §6 as an allow-list: every file belongs to a layer,
 * and an import from one layer into another (or of a package) passes only when the list below names
 * it. Anything it does not name fails, so a new dependency between layers is a decision written here.
 */

/** The client's feature folders (one folder per feature, ARCHITECTURE §1). */
export const FEATURES = [
  'attachments',
  'board',
  'campaigns',
  'comments',
  'contacts',
  'email',
  'home',
  'items',
  'lists',
  'login',
  'notifications',
  'onboarding',
  'planner',
  'plans',
  'preferences',
  'search',
  'sharing',
  'sync',
  'tasks',
  'time',
  'views',
] as const;

/**
 * The door (ARCHITECTURE §6 'One door'): the only data-layer modules a feature or the shell may load.
 * Commands go through app/door (send, useCommand), live reads through data/live (useLive: the live
 * reads of data/reads/live.ts bound to the door's client). Any data module may be named by `import type`.
 */
export const DOOR_MODULES = [
  'src/client/app/door',
  'src/client/data/live',
  // The errors a screen tells apart before the repository has loaded (the 'Invalid input' toast).
  'src/client/data/items/repositoryErrors',
  // Whether this browser can pick phone contacts: asked before anything is imported.
  'src/client/data/contacts/contactPicker',
  // Saves a file the device made (an export, changes kept for a lost campaign): no data, only the DOM.
  'src/client/data/transfer/downloadFile',
];

/**
 * The data layer's folders with one data feature each (ARCHITECTURE §6 'Layers inside data/'): they
 * import changes/, store/, reads/, net/ and sync/, and one another only where DATA_ALLOWED says.
 */
export const DATA_FEATURES = [
  'items',
  'comments',
  'contacts',
  'notifications',
  'search',
  'transfer',
  'timeEntries',
  'attachments',
] as const;

/**
 * The sub-layers of src/client/data: one per folder, `data:composition` for the files at its root that
 * wire it together (client.ts, page.ts, service.ts, live.ts), and `data:lazy` for lazy.ts, the one way
 * to load a part on first use, which imports nothing and so may be used by any of them.
 */
export const DATA_LAYERS = [
  'data:lazy',
  'data:net',
  'data:store',
  'data:changes',
  'data:sync',
  'data:reads',
  ...DATA_FEATURES.map((f) => `data:${f}` as const),
  'data:commands',
  'data:composition',
] as const;

const FEATURE_LAYERS = DATA_FEATURES.map((f) => `data:${f}` as const);
/** What a data feature stands on. */
const UNDER_FEATURES = ['data:changes', 'data:store', 'data:reads', 'data:net', 'data:sync', 'data:lazy'];

/**
 * ARCHITECTURE §6 'Layers inside data/' as an allow-list: what each sub-layer may import (sub-layers or
 * module paths) besides itself and src/shared. Nothing imports upward: an import the list does not
 * name fails, `import type` included, save the few type-only pairs of DATA_TYPES_ALLOWED.
 */
const DATA_ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'data:lazy': [],
  // The API client, events, connectivity, the auth channel between tabs.
  'data:net': [],
  // The schema (it owns every store), list keys, counters, side effects and maintainers, raw writes.
  'data:store': [],
  // The funnel, the local echo; it queues a change's requests through sync/queue.ts's enqueue, the one
  // named exception (ARCHITECTURE §6 'The queue has one owner').
  'data:changes': ['data:store', 'src/client/data/sync/queue'],
  // Push, pull, conflicts: it writes a local change through the funnel the composition hands it.
  'data:sync': ['data:store', 'data:net', 'data:lazy'],
  // The live reads, over the store and the local echo (an edit in place shows before it commits).
  'data:reads': ['data:store', 'src/client/data/changes/localEcho', 'src/client/data/changes/writeGuess'],
  ...Object.fromEntries(FEATURE_LAYERS.map((f) => [f, UNDER_FEATURES])),
  // A due reminder is shown as a system notification where the browser allows it.
  'data:items': [...UNDER_FEATURES, 'src/client/data/notifications/systemNotification'],
  // The export and import carry an item's comments, time entries (SYNC.md T3) and files.
  'data:transfer': [...UNDER_FEATURES, 'data:comments', 'data:timeEntries', 'data:attachments'],
  'data:commands': [...FEATURE_LAYERS, ...UNDER_FEATURES],
  'data:composition': DATA_LAYERS,
};

/** Type-only imports a sub-layer may make beyond what it may load: one line a decision. */
const DATA_TYPES_ALLOWED: readonly (readonly [string, string])[] = [
  // The sync engine names the funnel's types (it is handed the funnel itself).
  ['data:sync', 'data:changes'],
  // Features name each other's types (an export's rows are the repository's and the mutuals').
  ...FEATURE_LAYERS.flatMap((f) => FEATURE_LAYERS.map((g) => [f, g] as const)),
];

/** Why a data module may not import another data module, or null when the lists allow it. */
function dataProblem(
  from: string,
  to: string,
  source: string,
  module: string,
  typeOnly: boolean,
): string | null {
  const allowed = DATA_ALLOWED[from] ?? [];
  const named = (pairs: readonly (readonly [string, string])[]) =>
    pairs.some(([x, y]) => (x === from || x === source) && (y === to || y === module));
  if (allowed.includes(to) || allowed.includes(module)) return null;
  if (typeOnly && named(DATA_TYPES_ALLOWED)) return null;
  return `${from} may not import ${module}${typeOnly ? ' (not even its types)' : ''}: an import inside data/ goes down its layers (scripts/lib/boundaries.ts DATA_ALLOWED)`;
}

/** Who may load whom beyond the door: [from, to] pairs of layers or module paths (one line a decision). */
const ALLOWED: readonly (readonly [string, string])[] = [
  // The shell composes the features (its router and global overlays load their screens).
  ...FEATURES.map((f) => ['app', `feature:${f}`] as const),
  ['app', 'ui'],
  ['app', 'stores'],
  // The door itself reaches the data layer's light parts; the rest of the shell does not.
  ['src/client/app/door', 'src/client/data/net/apiClient'],
  ['src/client/app/door', 'src/client/data/commands/server'],
  // It loads the data layer after the first paint (import()), which builds the door over its client.
  ['src/client/app/door', 'src/client/data/page'],
  // And loads a command namespace's code ahead of an offline write (preloadCommands).
  ['src/client/app/door', 'src/client/data/commands/map'],
  ['src/client/data/page', 'src/client/app/door'],
  ['src/client/app/queryClient', 'src/client/data/net/apiClient'],
  ['client-root', 'app'],
  ['client-root', 'stores'],
  // The stores hold what the data layer reports; the auth store calls the API client.
  ['src/client/stores/authStore', 'src/client/data/net/apiClient'],
  // The data layer fills the stores, and its live reads follow the door on screen.
  ...DATA_LAYERS.map((l) => [l, 'stores'] as const),
  ['src/client/data/live', 'src/client/app/door'],
  // Cross-feature uses: the item rows, editors and reads serve every list and page.
  ...(
    [
      'campaigns',
      'comments',
      'home',
      'lists',
      'notifications',
      'planner',
      'plans',
      'search',
      'sharing',
      'tasks',
      'views',
    ] as const
  ).map((f) => [`feature:${f}`, 'feature:items'] as const),
  ['feature:home', 'feature:lists'],
  // A campaign's Board tab (issue 33), over the items' rows, order writes and drag handles.
  ['feature:campaigns', 'feature:board'],
  ['feature:board', 'feature:items'],
  // A campaign's Share control and member avatars (issue 30).
  ['feature:campaigns', 'feature:sharing'],
  // A shared saved view's member avatars (issue 66.3).
  ['feature:views', 'feature:sharing'],
  // An item's timeline (comments and history) on the task and campaign pages (issue 31).
  ['feature:tasks', 'feature:comments'],
  ['feature:campaigns', 'feature:comments'],
  // Home's Today card (the phone's way to Today and Upcoming, ARCHITECTURE §5).
  ['feature:home', 'feature:planner'],
  // Calendar and Timeline (issue 53): the agenda's moving 'today', and a viewer's read-only role.
  ['feature:plans', 'feature:planner'],
  ['feature:plans', 'feature:sharing'],
  ['feature:login', 'feature:onboarding'],
  ['feature:onboarding', 'feature:login'],
  ['feature:preferences', 'feature:notifications'],
  // An item's files under its description on every item page (issue 64).
  ['feature:items', 'feature:attachments'],
  // The timer and spent time on rows and pages, the time report from Preferences (issue 53).
  ['feature:items', 'feature:time'],
  ['feature:tasks', 'feature:time'],
  ['feature:campaigns', 'feature:time'],
  ['feature:preferences', 'feature:time'],
  // The contacts import's texts and error class, shown by the page that runs it.
  ['feature:contacts', 'src/client/data/contacts/contactsImport'],
  ...FEATURES.flatMap((f) => [
    [`feature:${f}`, 'ui'] as const,
    [`feature:${f}`, 'stores'] as const,
    [`feature:${f}`, 'app'] as const,
  ]),
];

/** Packages each layer may use (a prefix match on the package name; node: builtins where listed). */
const SHARED_PACKAGES = [
  'zod',
  'date-fns',
  'libphonenumber-js',
  'papaparse',
  'uuid',
  'chrono-node',
  'fractional-indexing',
  'jittered-fractional-indexing',
  // The export zip's layout, written and read as pure bytes (shared/exportZip.ts, issue 64).
  'fflate',
  // A CalDAV client's VTODO read as iCalendar (shared/vtodo.ts, issue 67): pure JavaScript, no I/O.
  'ical.js',
];
const UI_PACKAGES = ['react', 'react-dom', 'radix-ui', 'lucide-react', 'react-router'];
const CLIENT_PACKAGES = [
  ...SHARED_PACKAGES,
  ...UI_PACKAGES,
  'zustand',
  '@tanstack/react-query',
  'virtual:pwa-register',
  'workbox-window',
  // Drag and drop for manual order and the board (issue 33).
  '@dnd-kit/core',
  '@dnd-kit/sortable',
  '@dnd-kit/utilities',
  // Links in a comment's plain text (issue 31).
  'linkifyjs',
];
const DATA_PACKAGES = [
  ...SHARED_PACKAGES,
  'dexie',
  'dexie-react-hooks',
  'react',
  'zustand',
  // The browser half of passkeys (issue 52), loaded by the server commands with import() only.
  '@simplewebauthn/browser',
];
/** What never runs in a browser: the server's own packages. */
const CLIENT_ONLY = ['react', 'react-dom', 'radix-ui', 'lucide-react', 'react-router', 'dexie', 'zustand'];

export type Layer =
  | 'shared'
  | 'server'
  | 'ui'
  | 'stores'
  | `data:${string}`
  | 'app'
  | 'client-root'
  | `feature:${string}`
  | 'test'
  | 'testkit'
  | 'tooling';

const isData = (layer: Layer) => layer.startsWith('data:');

/** The composition: the files at data/'s root that wire it together and may import all of it. */
const COMPOSITION = ['client', 'page', 'service', 'live', 'signInSteps'];

/**
 * The sub-layer of a file under src/client/data (ARCHITECTURE §6 'Layers inside data/'). A folder or
 * root file the lists do not know is a layer of its own that may import nothing until DATA_ALLOWED
 * says what.
 */
function dataLayerOf(file: string): Layer {
  const [head = '', ...rest] = file.slice('src/client/data/'.length).split('/');
  const name = rest.length > 0 ? head : head.replace(/\.tsx?$/, '');
  if (rest.length === 0 && COMPOSITION.includes(name)) return 'data:composition';
  return `data:${name}` as Layer;
}

/** The layer of a source file (a path from the repository root, with its extension). */
export function layerOf(file: string): Layer {
  if (/\.test\.tsx?$/.test(file)) return 'test';
  if (file.startsWith('src/shared/')) return 'shared';
  if (file.startsWith('src/server/')) return 'server';
  if (file.startsWith('src/client/components/ui/') || file.startsWith('src/client/components/ui.'))
    return 'ui';
  if (file.startsWith('src/client/stores/')) return 'stores';
  if (file.startsWith('src/client/data/')) return dataLayerOf(file);
  if (file.startsWith('src/client/app/')) return 'app';
  if (file.startsWith('src/client/')) {
    const folder = file.split('/')[2] ?? '';
    return folder.includes('.') ? 'client-root' : `feature:${folder}`;
  }
  if (file.startsWith('testkit/')) return 'testkit';
  return 'tooling';
}

const withoutExtension = (file: string) => file.replace(/\.tsx?$/, '').replace(/\/index$/, '');

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function packageAllowed(layer: Layer, specifier: string): boolean {
  if (specifier.startsWith('node:')) return layer === 'server';
  const name = packageName(specifier);
  const among = (list: readonly string[]) => list.includes(name) || list.includes(specifier);
  if (layer === 'shared') return among(SHARED_PACKAGES);
  if (layer === 'server') return !among(CLIENT_ONLY);
  if (layer === 'ui') return among(UI_PACKAGES);
  if (isData(layer) || layer === 'stores') return among(DATA_PACKAGES);
  return among(CLIENT_PACKAGES);
}

/** Packages and node: builtins are the project's own business outside src/ (tests, tooling). */
const isPackage = (target: string) =>
  !/^(src|testkit|e2e|bench|scripts)\//.test(target) && !target.startsWith('.');

export interface Import {
  /** A path from the root for a relative specifier (with the target's extension), else the package. */
  target: string;
  /** `import type` (names a type, loads nothing). */
  typeOnly: boolean;
}

/** The one module under bench/ that imports the client's data layer (issue 63): the benches' surface. */
export const BENCH_DATA_SURFACE = 'bench/lib/appData.ts';

/** A benchmark importing src/client/data anywhere but through BENCH_DATA_SURFACE. */
function benchReachesDataAside(file: string, target: string): boolean {
  return file.startsWith('bench/') && file !== BENCH_DATA_SURFACE && target.startsWith('src/client/data/');
}

/** Why `file` may not import `imported`, or null when the allow-list names it. */
export function importProblem(file: string, imported: Import): string | null {
  const from = layerOf(file);
  const { target } = imported;
  // Tests, test tooling, benchmarks, browser specs and scripts may reach anything.
  const anything = from === 'test' || from === 'testkit' || from === 'tooling';
  if (isPackage(target))
    return anything || packageAllowed(from, target)
      ? null
      : `the ${from} layer does not use the package ${target}`;
  const to = layerOf(target);
  if (to === 'testkit')
    return anything ? null : 'test tooling (testkit/) is for tests, benchmarks and scripts only';
  if (benchReachesDataAside(file, target))
    return `benchmarks reach the client's data layer through ${BENCH_DATA_SURFACE} only`;
  if (anything) return null;
  if (to === 'test') return 'only tests import tests';
  if (from === to) return null;
  // Everyone may use the framework-free domain; it uses nothing else.
  if (to === 'shared') return null;
  if (from === 'shared') return 'src/shared is framework-free: it imports only itself';
  if (from === 'server' || to === 'server') return 'the client and the server share only src/shared';
  const module = withoutExtension(target);
  const source = withoutExtension(file);
  // Inside the data layer, its own layers (DATA_ALLOWED).
  if (isData(from) && isData(to)) return dataProblem(from, to, source, module, imported.typeOnly);
  // A type names nothing that loads: any other client module may name a data type.
  if (imported.typeOnly && isData(to)) return null;
  if (isData(to) && DOOR_MODULES.includes(module) && (from.startsWith('feature:') || from === 'app'))
    return null;
  const named = ALLOWED.some(([x, y]) => (x === from || x === source) && (y === to || y === module));
  return named
    ? null
    : `${from} may not import ${isData(to) ? module : to} (not in scripts/lib/boundaries.ts)`;
}

/** The imports of a file's text: relative ones resolved to paths from the root (without extension). */
export function importsOf(
  file: string,
  text: string,
): { specifier: string; resolved: string; typeOnly: boolean; eager: boolean }[] {
  const IMPORT =
    /(?:^|[\s;])(?:import|export)\s(type\s)?(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  const out: { specifier: string; resolved: string; typeOnly: boolean; eager: boolean }[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[2] ?? match[3];
    if (!specifier) continue;
    const resolved = specifier.startsWith('.')
      ? path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
      : specifier;
    out.push({
      specifier,
      resolved,
      typeOnly: match[1] !== undefined,
      eager: match[2] !== undefined && match[1] === undefined,
    });
  }
  return out;
}
