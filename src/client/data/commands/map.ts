/**
 * The data layer's one door (ARCHITECTURE §6): every command by name, `send('items.update', …)`, over
 * a handler map as Actual's loot-core has it. Each namespace is a module of its own, loaded on its
 * first command, so the first screen downloads none of them. Adding a command is one entry in its
 * namespace's `commands`; adding a namespace is one line below. Types come from the handlers
 * themselves, so a caller's arguments and result are checked without a hand-written interface.
 */
import type { OutpostClient } from '../client';

/** What a handler works on: the data layer's client (one per page, or per simulated device in tests). */
export type CommandContext = OutpostClient;

/** A command's handler: the context, then its one argument (`void` when it takes none). */
// biome-ignore lint/suspicious/noExplicitAny: the map's handlers each narrow their own argument.
export type Handler = (ctx: CommandContext, args: any) => unknown;

/** Declares a namespace's handlers, keeping their exact types (a command is one entry here). */
export function defineCommands<const T extends Record<string, Handler>>(handlers: T): T {
  return handlers;
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
} as const;

export type Namespace = keyof typeof NAMESPACES;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

/** Every command of every namespace, joined: `Commands['items.update']` is its handler. */
export type Commands = UnionToIntersection<
  { [N in Namespace]: Awaited<ReturnType<(typeof NAMESPACES)[N]>> }[Namespace]
>;
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

/** Runs one command on a context; an unknown name is a programming error and says so. */
export async function runCommand(ctx: CommandContext, name: string, args: unknown): Promise<unknown> {
  const namespace = name.slice(0, name.indexOf('.')) as Namespace;
  if (!(namespace in NAMESPACES)) throw new Error(`Unknown command namespace: ${name}`);
  const handler = (await handlersOf(namespace))[name];
  if (!handler) throw new Error(`Unknown command: ${name}`);
  return handler(ctx, args);
}

/** The `send` of one context (a page's client, a test's device). */
export function sendFor(ctx: CommandContext): Send {
  return ((name: string, args?: unknown) => runCommand(ctx, name, args)) as Send;
}
