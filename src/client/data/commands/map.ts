/**
 * The data layer's one door (ARCHITECTURE §6): every command by name, `send('items.update', …)`, over
 * a handler map as Actual's loot-core has it. Each namespace is a module of its own, loaded on its
 * first command, so the first screen downloads none of them. Adding a command is one entry in its
 * namespace's `commands`; adding a namespace is one line below. Types come from the handlers
 * themselves, so a caller's arguments and result are checked without a hand-written interface.
 *
 * Narrow contexts (ARCHITECTURE §6): each namespace declares the services its handlers use, and the
 * composition (client.ts) hands it those and nothing else; no handler receives the whole client.
 */

/** A command's handler: its namespace's context, then its one argument (`void` when it takes none). */
// biome-ignore lint/suspicious/noExplicitAny: the map's handlers each narrow their own argument.
export type Handler<Ctx = any> = (ctx: Ctx, args: any) => unknown;

/**
 * Declares a namespace's handlers over the context it needs, keeping their exact types (a command is
 * one entry here): `defineCommands<{ api: ApiClient }>()({ 'ns.cmd': (c, args) => … })`.
 */
export function defineCommands<Ctx>() {
  return <const T extends Record<string, Handler<Ctx>>>(handlers: T): T => handlers;
}

/** Every namespace and how it loads: its module's `commands`. */
export const NAMESPACES = {
  items: () => import('./items').then((m) => m.commands),
  undo: () => import('./undo').then((m) => m.commands),
  trash: () => import('./undo').then((m) => m.trashCommands),
  transfer: () => import('./transfer').then((m) => m.commands),
  sync: () => import('./sync').then((m) => m.commands),
  device: () => import('./sync').then((m) => m.deviceCommands),
  notifications: () => import('./notifications').then((m) => m.commands),
  contacts: () => import('./contacts').then((m) => m.commands),
  search: () => import('./search').then((m) => m.commands),
  server: () => import('./server').then((m) => m.commands),
  sharing: () => import('./sharing').then((m) => m.commands),
  comments: () => import('./comments').then((m) => m.commands),
  webhooks: () => import('./webhooks').then((m) => m.commands),
  email: () => import('./email').then((m) => m.commands),
  time: () => import('./time').then((m) => m.commands),
  attachments: () => import('./attachments').then((m) => m.commands),
  templates: () => import('./templates').then((m) => m.commands),
  views: () => import('./views').then((m) => m.commands),
} as const;

export type Namespace = keyof typeof NAMESPACES;

type HandlersOf<N extends Namespace> = Awaited<ReturnType<(typeof NAMESPACES)[N]>>;

/** The services namespace `N` declared (its handlers' first parameter). */
export type ContextOf<N extends Namespace> = HandlersOf<N>[keyof HandlersOf<N>] extends (
  ctx: infer C,
  ...rest: never[]
) => unknown
  ? C
  : never;

/** What the composition hands the door: one context per namespace, each only what it declared. */
export type CommandContexts = { [N in Namespace]: ContextOf<N> };

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

/** Every command of every namespace, joined: `Commands['items.update']` is its handler. */
export type Commands = UnionToIntersection<{ [N in Namespace]: HandlersOf<N> }[Namespace]>;
export type CommandName = keyof Commands & string;
/** The one argument a command takes (`void` for none). */
export type ArgsOf<N extends CommandName> = Parameters<Commands[N]>[1];
/** What a command resolves with. */
export type ResultOf<N extends CommandName> = Awaited<ReturnType<Commands[N]>>;

/** A typed `send`: commands that take no argument are called with the name alone. */
export type Send = <N extends CommandName>(
  name: N,
  ...args: undefined extends ArgsOf<N> ? [args?: ArgsOf<N>] : [args: ArgsOf<N>]
) => Promise<ResultOf<N>>;

const loaded = new Map<Namespace, Promise<Record<string, Handler>>>();

/** Loads a namespace's handlers once a page (a failed load is tried again on the next command). */
function handlersOf(namespace: Namespace): Promise<Record<string, Handler>> {
  let handlers = loaded.get(namespace);
  if (!handlers) {
    handlers = (NAMESPACES[namespace]() as Promise<Record<string, Handler>>).catch((error: unknown) => {
      loaded.delete(namespace);
      throw error;
    });
    loaded.set(namespace, handlers);
  }
  return handlers;
}

/**
 * Loads a namespace ahead of its first command, while the network is still there: a screen that
 * writes offline later (a comment typed in a tunnel) must not need a download then.
 */
export function preloadCommands(namespace: Namespace): Promise<void> {
  return handlersOf(namespace).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * Runs one command with its namespace's context (only that one); an unknown name is a programming
 * error and says so.
 */
export async function runCommand(contexts: CommandContexts, name: string, args: unknown): Promise<unknown> {
  const namespace = name.slice(0, name.indexOf('.')) as Namespace;
  if (!(namespace in NAMESPACES)) throw new Error(`Unknown command namespace: ${name}`);
  const handler = (await handlersOf(namespace))[name];
  if (!handler) throw new Error(`Unknown command: ${name}`);
  return handler(contexts[namespace], args);
}

/** The `send` over one set of contexts (a page's client, a test's device). */
export function sendFor(contexts: CommandContexts): Send {
  return ((name: string, args?: unknown) => runCommand(contexts, name, args)) as Send;
}
