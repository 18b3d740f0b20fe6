import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { DrizzleQueryError, type Logger, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { startAutovacuum } from './autovacuum';
import { MIGRATIONS_FOLDER, type MigrationPlan, migrationPlan, refuseNewerDatabase } from './migrations';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** Anything that runs SQL: the database or an open transaction. */
export type Executor = Pick<Db, 'execute'>;

export interface Database {
  kind: 'pglite' | 'pg';
  db: Db;
  /** The pg pool, for tests; absent on PGlite. */
  pool: pg.Pool | null;
  /** The embedded engine itself, for benchmarks that measure it without the app; absent on PostgreSQL. */
  pglite: PGlite | null;
  /** The PostgreSQL connection string, for the LISTEN connection; absent on PGlite. */
  url?: string;
  /**
   * Queries waiting for a connection now: the pg pool's waitingCount on PostgreSQL; on the embedded
   * engine, transactions queued for its one session plus statements queued in front of it.
   */
  waiting(): number;
  close(): Promise<void>;
}

const migrationsFolder = MIGRATIONS_FOLDER;

// Counts and ids come back as int8 strings from pg; our ids and counts fit in a JS number.
pg.types.setTypeParser(20, (v) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
});

/** Distinct statements one connection keeps prepared; more (e.g. IN lists of every length) run unnamed. */
const MAX_PREPARED = 500;
/** Statements with more parameters than this are one-off lists (a batch's uuids), not hot queries. */
const MAX_PREPARED_PARAMS = 32;
const statementNames = new Map<string, string>();

/**
 * One read without parameters (its values are expressions such as pg_current_xact_id()): named too,
 * since it is a fixed text run on every write. Anything else without parameters (BEGIN, COMMIT, the
 * migrations' DDL, several statements in one text) stays unnamed, as the extended protocol allows
 * one statement only.
 */
const SINGLE_READ = /^\s*(?:select|with)\b[^;]*;?\s*$/i;

/**
 * A name for a statement's text, the same on every connection, or none past the cap. A `hot` one is
 * named whatever its parameters: its text is fixed, not a list's.
 */
function statementName(text: string, paramCount: number, hot = false): string | undefined {
  if (paramCount > MAX_PREPARED_PARAMS && !hot) return undefined;
  if (paramCount === 0 && !SINGLE_READ.test(text)) return undefined;
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_PREPARED) {
    name = `outpost_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A pg client that sends every parameterised statement (and every single read without parameters)
 * as a named (prepared) one, so each connection parses and plans it once: planning the item SELECT
 * cost ~0.9 ms against ~0.15 ms running it, on every write, and on PGlite planning the viewers of a
 * write's changes cost 1.4-2 ms against 0.1 ms running it. BEGIN, COMMIT and migrations stay unnamed.
 */
class PreparingClient extends pg.Client {
  /** A BEGIN not sent yet: it goes on the wire with the transaction's first statement (see query). */
  deferredBegin = false;
  /** The socket holds what is sent until the end of this tick (see query). */
  corked = false;
}
const plainQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;

/** The text of a statement without parameters, lower-cased, or null (a named or parameterised one). */
function bareText(config: unknown, rest: readonly unknown[]): string | null {
  // drizzle sends its BEGIN as (config, []): no parameters, no callback.
  const noParams = rest.length === 0 || (rest.length === 1 && Array.isArray(rest[0]) && rest[0].length === 0);
  if (!noParams) return null;
  const text =
    typeof config === 'string' ? config : (config as { text?: unknown; values?: unknown } | null)?.text;
  const values = typeof config === 'object' ? (config as { values?: unknown } | null)?.values : undefined;
  if (typeof text !== 'string' || (Array.isArray(values) && values.length > 0)) return null;
  return text.trim().toLowerCase();
}

const BEGUN = { command: 'BEGIN', rowCount: null, rows: [], fields: [] };

PreparingClient.prototype.query = function (this: PreparingClient, config: unknown, ...rest: unknown[]) {
  const bare = this.pipeline ? bareText(config, rest) : null;
  if (this.pipeline && !this.corked) {
    // Statements sent in one tick (a BEGIN and the first statement, reads sent together) leave in
    // one write: one system call, and one wake-up of the server, instead of one per statement.
    const stream = (
      this as unknown as {
        connection: { stream: NodeJS.WritableStream & { cork?(): void; uncork?(): void } };
      }
    ).connection.stream;
    if (stream.cork && stream.uncork) {
      stream.cork();
      this.corked = true;
      process.nextTick(() => {
        this.corked = false;
        stream.uncork?.();
      });
    }
  }
  // On a pipelined connection (PostgreSQL) a transaction's BEGIN waits and goes with its first
  // statement, one round trip instead of two: the connection is this transaction's alone from
  // BEGIN to COMMIT, and the server runs what it receives in order. A transaction that sends
  // nothing (COMMIT or ROLLBACK right after) costs no round trip at all.
  if (bare === 'begin') {
    this.deferredBegin = true;
    return Promise.resolve(BEGUN);
  }
  if (this.deferredBegin) {
    this.deferredBegin = false;
    if (bare === 'commit' || bare === 'rollback')
      return Promise.resolve({ ...BEGUN, command: bare.toUpperCase() });
    const begun = plainQuery.call(this, 'BEGIN') as Promise<unknown>;
    begun.catch(() => undefined);
    const first = prepare(this, config, rest) as Promise<unknown>;
    // A BEGIN that fails (the connection ended) fails the statement behind it too, with the same
    // error: that one is reported through the BEGIN's, and must not go unhandled (it killed the process).
    first.catch(() => undefined);
    // Both are on the wire: the statement's answer counts only if the BEGIN before it held.
    return begun.then(() => first);
  }
  return prepare(this, config, rest);
} as typeof pg.Client.prototype.query;

/** Sends a parameterised statement (or a single read) named, so the connection plans it once. */
function prepare(client: pg.Client, config: unknown, rest: unknown[]): unknown {
  if (config !== null && typeof config === 'object' && !('name' in config && config.name)) {
    const { text, values } = config as { text?: unknown; values?: unknown };
    const params = Array.isArray(rest[0]) ? rest[0] : values;
    if (typeof text === 'string' && Array.isArray(params)) {
      const name = statementName(text, params.length);
      if (name !== undefined) return plainQuery.call(client, { ...config, name }, ...rest);
    }
  }
  return plainQuery.call(client, config, ...rest);
}

/**
 * The row parsers drizzle's node-postgres driver gives its queries: dates, times, intervals (and
 * arrays of them) stay the strings PostgreSQL sent, every other type parses as pg's default. One
 * object for every statement, where drizzle builds two closures per query.
 */
const DRIVER_TYPES = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(typeId) ? (value: string) => value : pg.types.getTypeParser(typeId, format),
};
// timestamptz, timestamp, date, interval and their arrays (1185, 1115, 1182, 1187), and numeric[].
const TEXT_TYPES = new Set([1184, 1114, 1082, 1186, 1231, 1115, 1185, 1187, 1182]);

const dialect = new PgDialect();

interface DriverSession {
  client: pg.Pool | pg.PoolClient;
  logger: Logger;
}

/**
 * `execute` for a drizzle database or transaction that goes straight to its pg client: the same
 * text, parameters, statement name, row parsers, logging and error as drizzle's own execute, without
 * its per-query objects (a prepared-query wrapper with two config closures, tracing spans, a cache
 * check and a result promise), which cost a write ~15 µs per statement and much of its garbage.
 */
function directExecute(executor: Executor): Executor['execute'] {
  const session = (executor as unknown as { session: DriverSession }).session;
  return ((query: SQLWrapper | string) => {
    const built =
      query instanceof BoundStatement
        ? query
        : dialect.sqlToQuery(typeof query === 'string' ? sql.raw(query) : query.getSQL());
    session.logger.logQuery(built.sql, built.params);
    const config: pg.QueryConfig = { text: built.sql, values: built.params, types: DRIVER_TYPES };
    // Named here once; PreparingClient then leaves a named config as it is.
    const name = query instanceof BoundStatement ? query.name : statementName(built.sql, built.params.length);
    if (name !== undefined) config.name = name;
    return session.client.query(config).catch((error: unknown) => {
      throw new DrizzleQueryError(built.sql, built.params, error as Error);
    });
  }) as unknown as Executor['execute'];
}

/** Where a prepared statement's argument goes while its text is built (see `prepared`). */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * One call of a prepared statement: its text and name built once, its parameters this call's. It is
 * an SQLWrapper too, so any executor can run it (one without the direct path builds it again).
 */
export class BoundStatement implements SQLWrapper {
  constructor(
    readonly sql: string,
    readonly params: unknown[],
    readonly name: string | undefined,
    private readonly rebuild: () => SQL,
  ) {}
  getSQL(): SQL {
    return this.rebuild();
  }
}

/**
 * A hot statement whose text is built once: `build` runs a single time with placeholders for its
 * arguments, and each call only fills in the parameters. Building the item SELECT (dozens of nested
 * fragments) cost more than the statement's own round trip on the embedded engine. `build` must not
 * branch on its arguments' values or take lists: its shape is fixed by the first build.
 */
export function prepared<A extends unknown[]>(build: (...args: A) => SQL): (...args: A) => BoundStatement {
  let shape: { sql: string; params: unknown[]; name: string | undefined } | null = null;
  return (...args: A) => {
    if (shape === null) {
      const built = dialect.sqlToQuery(build(...(args.map((_, i) => new Slot(i)) as A)));
      shape = { ...built, name: statementName(built.sql, built.params.length) };
    }
    const params = shape.params.map((p) => (p instanceof Slot ? args[p.index] : p));
    return new BoundStatement(shape.sql, params, shape.name, () => build(...args));
  };
}

/**
 * A hot statement of a fixed text with more parameters than lists are allowed (the sync page's, 61),
 * prepared like any other: planning it on every call was ~12% of a 10,000-item first sync's server
 * time on PGlite (20 pages: 577-598 ms against 504-529 ms prepared).
 */
export function hotStatement(query: SQL): BoundStatement {
  const built = dialect.sqlToQuery(query);
  return new BoundStatement(
    built.sql,
    built.params,
    statementName(built.sql, built.params.length, true),
    () => query,
  );
}

/** Gives the database and every transaction it opens the direct `execute` (BEGIN still goes through drizzle). */
function executeDirectly(db: Db): void {
  db.execute = directExecute(db);
  const begin = db.transaction.bind(db);
  db.transaction = ((
    run: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<unknown>,
    config,
  ) =>
    begin((tx) => {
      tx.execute = directExecute(tx);
      return run(tx);
    }, config)) as Db['transaction'];
}

/** Connections per instance on PostgreSQL: the most writes one instance has in flight at once. */
export const PG_POOL_SIZE = 20;

/**
 * Opens PGlite in `dataDir` (or in memory for `memory://`) or PostgreSQL at `url`, and migrates it.
 * `logger` sees every statement the app sends (the load benchmark replays them as its ceiling).
 * `autovacuum: false` leaves the embedded engine's upkeep to the caller (the load benchmark's
 * ceiling runs it between its own transactions, which share the engine's one session).
 */
export async function openDatabase(options: {
  url?: string;
  dataDir?: string;
  logger?: Logger;
  autovacuum?: boolean;
  /**
   * An embedded engine's data folder to start from (PGlite's dumpDataDir): an engine that starts from
   * a migrated copy skips its initdb, seconds of work (the test suite opens dozens).
   */
  loadDataDir?: Blob;
  /**
   * The embedded engine's shared_buffers (such as `16MB`; EMBEDDED_SHARED_BUFFERS), given on its
   * command line at each start, so the data folder keeps no setting; null or absent, PostgreSQL's default.
   */
  sharedBuffers?: string | null;
  /**
   * Runs before the first migration of a database that has some already (an upgrade), with the
   * database open and what is about to be applied: the server writes its pre-upgrade backup here
   * (backup/upgrade.ts). A new database, or one with nothing to apply, skips it.
   */
  beforeUpgrade?: (database: Database, plan: MigrationPlan) => Promise<void>;
}): Promise<Database> {
  const logger = options.logger ?? false;
  if (options.url) {
    // JIT compilation suits long analytic queries; ours are short, and the planner's estimate for the
    // visibility sub-query crosses jit_above_cost, which added 10-20 ms of compiling to a 1 ms count.
    const pool = new pg.Pool({
      connectionString: options.url,
      max: PG_POOL_SIZE,
      options: '-c jit=off',
      Client: PreparingClient,
      // Statements a transaction sends together (its BEGIN with the first, reads that do not wait
      // on each other) go out at once, not one round trip each; each still has its own answer.
      pipeline: true,
    });
    // An idle client losing its connection (a restarting server) must not crash the process.
    pool.on('error', () => {});
    // A client checked out of the pool has no error listener of the pool's, so PostgreSQL ending its
    // connection between two queries of a transaction (a restart: "terminating connection due to
    // administrator command") was an unhandled 'error' event that killed the process. The failed
    // query still rejects (a 503), and the pool drops the broken client when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema, logger }) as unknown as Db;
    executeDirectly(db);
    const database: Database = {
      kind: 'pg',
      db,
      pool,
      pglite: null,
      url: options.url,
      waiting: () => pool.waitingCount,
      close: () => pool.end(),
    };
    try {
      const client = await firstConnection(pool, withoutPassword(options.url));
      try {
        // Several instances may start at once against one database: migrate one at a time.
        await client.query('SELECT pg_advisory_lock(724001)');
        const migrator = drizzlePg(client, { schema });
        await beforeMigrating(database, migrator, withoutPassword(options.url), options.beforeUpgrade);
        await migratePg(migrator, { migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock(724001)').catch(() => {});
        client.release();
      }
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
    return database;
  }
  const dataDir = options.dataDir ?? './data';
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const release = inMemory ? () => {} : claimDataDir(dataDir);
  const location = inMemory ? dataDir : path.resolve(dataDir);
  let engine: EmbeddedEngine;
  try {
    engine = await migratedEngine(location, dataDir, inMemory, options, logger);
  } catch (error) {
    release();
    throw error;
  }
  const { client, pool, db } = engine;
  const turns = takeTurns(db);
  let stopAutovacuum = async () => {};
  if (options.autovacuum !== false) stopAutovacuum = startAutovacuum(db);
  return {
    kind: 'pglite',
    db,
    pool: null,
    pglite: client,
    waiting: () => turns.waiting + pool.waitingCount,
    close: async () => {
      await stopAutovacuum();
      await engine.close();
      release();
    },
  };
}

interface EmbeddedEngine {
  client: PGlite;
  pool: pg.Pool;
  db: Db;
  close: () => Promise<void>;
}

function embeddedEngine(
  location: string,
  options: { loadDataDir?: Blob; sharedBuffers?: string | null },
  logger: Logger | boolean,
): EmbeddedEngine {
  const client = new PGlite(location, {
    extensions: { pg_trgm },
    // PostgreSQL's 128 MB of shared buffers were most of an idle server's memory (issue 68: an idle
    // container measured 430 MB, 260 MB with 16 MB). On the command line, not PGlite's
    // `postgresqlconf`, which replaces the folder's postgresql.conf for good.
    ...(options.sharedBuffers
      ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`] }
      : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const pool = pgliteQueue(client);
  const db = drizzlePg(pool, { schema, logger }) as unknown as Db;
  executeDirectly(db);
  return {
    client,
    pool,
    db,
    close: async () => {
      await pool.end();
      await client.close();
    },
  };
}

/**
 * Opens the embedded engine and migrates it. A start that created the database or applied migrations
 * then opens it afresh: initdb and index builds grow the engine's wasm memory, which never shrinks, and
 * the first start's idle server held 550 MB against a restart's 430 MB. A folder in memory has no
 * second opening (closing it loses it).
 */
async function migratedEngine(
  location: string,
  where: string,
  inMemory: boolean,
  options: Parameters<typeof openDatabase>[0],
  logger: Logger | boolean,
): Promise<EmbeddedEngine> {
  if (!inMemory && !options.loadDataDir && !existsSync(path.join(location, 'PG_VERSION'))) {
    await createEmbeddedInChild(location);
  }
  const engine = embeddedEngine(location, options, logger);
  let plan: MigrationPlan;
  try {
    plan = await migrateEmbedded(engine, where, options.beforeUpgrade);
  } catch (error) {
    await engine.close().catch(() => {});
    throw error;
  }
  if (inMemory || plan.pending.length === 0) return engine;
  await engine.close();
  const fresh = embeddedEngine(location, { sharedBuffers: options.sharedBuffers ?? null }, logger);
  await fresh.client.waitReady;
  // The closed engine's memory returns when it is collected, which an idle server may not do for a
  // long while; the image runs node with --expose-gc so it is collected now (Dockerfile).
  (globalThis as { gc?: () => void }).gc?.();
  return fresh;
}

/**
 * Creates a new embedded database (its initdb) in a child process that then exits: initdb left 30-35 MB
 * of the server's native heap behind for good (fragments no collection returns), a fifth of an idle
 * container's budget (issue 68).
 */
async function createEmbeddedInChild(location: string): Promise<void> {
  const script =
    'const { PGlite } = await import(process.argv[1]); const db = new PGlite(process.argv[2]); await db.waitReady; await db.close();';
  try {
    await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script, import.meta.resolve('@electric-sql/pglite'), location],
      { maxBuffer: 1024 * 1024 },
    );
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(
      `Could not create the embedded database in ${location}: ${(stderr || (error as Error).message).trim()}`,
    );
  }
}

async function migrateEmbedded(
  engine: EmbeddedEngine,
  where: string,
  beforeUpgrade: ((database: Database, plan: MigrationPlan) => Promise<void>) | undefined,
): Promise<MigrationPlan> {
  const { client, pool, db } = engine;
  const database: Database = {
    kind: 'pglite',
    db,
    pool: null,
    pglite: client,
    waiting: () => pool.waitingCount,
    close: engine.close,
  };
  // Migrations run on the engine itself (its own driver runs a file's statements as one script);
  // the app's queries then go through the same node-postgres driver as on PostgreSQL.
  const migrator = drizzlePglite(client, { schema });
  const plan = await beforeMigrating(database, db, where, beforeUpgrade);
  await migratePglite(migrator, { migrationsFolder });
  return plan;
}

/**
 * Reads where the database stands before the migrator runs: one a newer Outpost migrated is refused
 * (the migrator would skip every file and the code meet tables it does not know); an upgrade (some
 * migrations applied, some pending) runs `beforeUpgrade` first.
 */
async function beforeMigrating(
  database: Database,
  runner: Executor,
  where: string,
  beforeUpgrade: ((database: Database, plan: MigrationPlan) => Promise<void>) | undefined,
): Promise<MigrationPlan> {
  const plan = await migrationPlan(runner);
  refuseNewerDatabase(plan, where);
  if (beforeUpgrade && plan.applied.length > 0 && plan.pending.length > 0)
    await beforeUpgrade(database, plan);
  return plan;
}

/** How long start-up waits for PostgreSQL's first connection before it stops with the reason. */
export const FIRST_CONNECTION_TIMEOUT_MS = 15_000;

/**
 * The pool's first connection, or an error naming DATABASE_URL and the reason (refused, timed out,
 * a wrong password, no such database): a server that starts on a database it cannot reach would
 * only say so in its first request's 503.
 */
async function firstConnection(pool: pg.Pool, where: string): Promise<pg.PoolClient> {
  let timer: NodeJS.Timeout | undefined;
  const connecting = pool.connect();
  try {
    return await Promise.race([
      connecting,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${FIRST_CONNECTION_TIMEOUT_MS / 1000} s`)),
          FIRST_CONNECTION_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (error) {
    // A connection that comes after all goes back to the pool, which is then ended.
    connecting.then(
      (late) => late.release(),
      () => {},
    );
    const reason = (error as Error).message || (error as { code?: string }).code || String(error);
    throw new Error(`DATABASE_URL: cannot connect to PostgreSQL at ${where}: ${reason}`);
  } finally {
    clearTimeout(timer);
  }
}

/** A PostgreSQL URL for messages: its password replaced. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

/** The file in an embedded data folder naming the process that has it open. */
export const DATA_DIR_OWNER_FILE = 'outpost.pid';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims an embedded data folder for this process, or refuses when another live process holds it:
 * the embedded engine serves one process, and two on one folder would corrupt it (a backup or
 * restore while the server runs, a second server). A folder left claimed by a crash is taken over.
 * Returns the release, run when the engine closes.
 */
function claimDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, DATA_DIR_OWNER_FILE);
  let owner = 0;
  try {
    owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
  } catch {
    // Nobody has it.
  }
  if (owner > 0 && owner !== process.pid && processAlive(owner)) {
    throw new Error(
      `The embedded database in ${dataDir} is open in another process (pid ${owner}); the embedded engine serves one process at a time. Stop that process (the Outpost server) first.`,
    );
  }
  writeFileSync(file, String(process.pid));
  return () => {
    try {
      if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
}

/**
 * The embedded engine behind a node-postgres pool of one connection, with named statements
 * (PreparingClient): drizzle's PGlite driver sends every query unnamed, so the engine parsed and
 * planned the full item SELECT (2-3 ms) and the family lock (1.5-2 ms) again on every write, and
 * planning was most of a write's cost. One connection, as the engine has one session: the pool
 * queues the rest, a transaction holds it from BEGIN to COMMIT.
 */
function pgliteQueue(engine: PGlite): pg.Pool {
  const config = createPgConfig(engine);
  const connection = config.connection;
  const parse = connection.parse.bind(connection);
  // drizzle hands each query its type parsers as `types: { getTypeParser }`, which pg reads for
  // parsing rows and its own Parse message ignores; PGlite's Parse serialiser expects the array of
  // parameter type ids there (`types.forEach`). No parameter types are ever sent: drop anything else.
  connection.parse = (query: { types?: unknown }) =>
    parse({ ...query, types: Array.isArray(query.types) ? query.types : undefined });
  // A client closed for idleness would come back to the same session; keeping it costs nothing.
  const pool = new pg.Pool(Object.assign(config, { max: 1, idleTimeoutMillis: 0, Client: PreparingClient }));
  pool.on('error', () => {});
  return pool;
}

/**
 * The embedded engine runs one transaction at a time, on this thread, and its queries resolve as
 * microtasks: queued transactions ran back to back without the event loop ever reading a socket, so
 * requests waited unread (up to 30 s under 50 writers) while the server's own timings looked fine.
 * Transactions here take turns in arrival order, and each turn first lets pending I/O run.
 */
function takeTurns(db: Db): { waiting: number } {
  const begin = db.transaction.bind(db);
  let last: Promise<unknown> = Promise.resolve();
  const queue = { waiting: 0 };
  db.transaction = ((...args: Parameters<Db['transaction']>) => {
    queue.waiting += 1;
    const turn = last
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        queue.waiting -= 1;
        return begin(...args);
      });
    last = turn.catch(() => {});
    return turn;
  }) as Db['transaction'];
  return queue;
}

/** Whether statements run on this executor go out without waiting for the one before (PostgreSQL). */
export function pipelined(executor: Executor): boolean {
  const client = (executor as unknown as { session?: { client?: { pipeline?: boolean } } }).session?.client;
  return client?.pipeline === true;
}

/**
 * Two statements of one transaction, run in this order: on a pipelined connection both go out at
 * once and the server still runs them one after the other (the second sees what the first did or
 * waited for); elsewhere the second is sent when the first has answered.
 */
export function inOrder<A, B>(
  executor: Executor,
  first: () => Promise<A>,
  second: () => Promise<B>,
): Promise<[A, B]> {
  if (!pipelined(executor)) return first().then(async (a) => [a, await second()] as [A, B]);
  // Both settle before either's failure is reported: nothing of them may reach the connection after
  // the caller ends the transaction. The first's failure is the one to report (the second's is then
  // 'transaction aborted').
  return Promise.allSettled([first(), second()]).then(([a, b]) => {
    if (a.status === 'rejected') throw a.reason;
    if (b.status === 'rejected') throw b.reason;
    return [a.value, b.value] as [A, B];
  });
}

/** Runs a query and returns its rows, the same on both engines. */
export async function rows<T>(executor: Executor, query: SQLWrapper): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export { sql };
