import { once } from 'node:events';
import { chmodSync, createWriteStream, renameSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { type BackupHeader, type BackupResult, type EndLine, writeBackup } from './backup';
import type { FileEndLine } from './fileLines';

/**
 * `npm run backup` of the embedded database while the server runs (ARCHITECTURE §4 'Running it'):
 * the engine serves one process, so the script does not open the data folder; it asks the running
 * server through a unix socket in that folder, and the server streams the backup back. Whoever may
 * connect to the socket may read the data folder anyway: the socket is its owner's alone (0600).
 */

/** The socket's file in the data folder. */
export const BACKUP_SOCKET_FILE = 'outpost.sock';
/** What a client sends: the one request there is. */
const REQUEST = 'backup\n';

/** The socket's path for a data folder. */
export function backupSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), BACKUP_SOCKET_FILE);
}

/**
 * Listens on DATA_DIR/outpost.sock for backup requests while the app runs; closed with the app. A
 * folder whose path is too long for a socket (about 100 bytes) serves none, and says so.
 */
export async function serveLiveBackups(app: FastifyInstance, dataDir: string): Promise<void> {
  const file = backupSocketPath(dataDir);
  // The data folder is this process's (openDatabase claimed it): a socket left there is a crashed one's.
  rmSync(file, { force: true });
  const server: Server = createServer((socket) => void answer(app, socket));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, () => {
        server.off('error', reject);
        resolve();
      });
    });
    chmodSync(file, 0o600);
  } catch (error) {
    app.log.warn(
      `npm run backup cannot reach this server (${(error as Error).message}); it will need the server stopped.`,
    );
    return;
  }
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(file, { force: true });
  });
}

/** Reads the request line, then streams the gzipped backup; a failure ends the stream without its end line. */
async function answer(app: FastifyInstance, socket: Socket): Promise<void> {
  socket.on('error', () => {});
  // A client that connects and says nothing is let go.
  socket.setTimeout(10_000, () => socket.destroy());
  const received = await new Promise<string>((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n') || text.length >= REQUEST.length) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('close', () => resolve(text));
  });
  socket.setTimeout(0);
  if (received !== REQUEST) {
    socket.destroy();
    return;
  }
  const gzip = createGzip({ level: 6 });
  const sent = pipeline(gzip, socket);
  try {
    await writeBackup(app.database, gzip, { files: app.files });
    gzip.end();
    await sent;
  } catch (error) {
    app.log.error({ err: error }, 'a backup through the data folder socket failed');
    gzip.destroy();
    socket.destroy();
    await sent.catch(() => {});
  }
}

/**
 * Asks the server running on `dataDir` for a backup and writes it to `file` (0600, renamed into place
 * once complete). Answers null when no server listens there; throws when the backup arrives without
 * its end line (the server failed or stopped half way), leaving no file.
 */
export async function liveBackup(dataDir: string, file: string): Promise<BackupResult | null> {
  const probe = connect(backupSocketPath(dataDir));
  try {
    await once(probe, 'connect');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return null;
    throw error;
  } finally {
    probe.destroy();
  }
  // A server answers: the file must be writable before it is asked for anything.
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const out = createWriteStream(partial, { mode: 0o600, flags: 'wx' });
  await once(out, 'open');
  const socket = connect(backupSocketPath(dataDir));
  socket.write(REQUEST);
  const toFile = new PassThrough();
  const toCheck = new PassThrough();
  socket.on('data', (chunk: Buffer) => {
    toFile.write(chunk);
    toCheck.write(chunk);
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    toFile.end();
    toCheck.end();
  };
  // A socket the server destroyed may close without an end: what came is checked all the same.
  socket.on('end', end);
  socket.on('close', end);
  socket.on('error', (error) => {
    toFile.destroy(error);
    toCheck.destroy(error);
  });
  const written = pipeline(toFile, out);
  written.catch(() => {});
  let header: BackupHeader | null = null;
  let last = '';
  let bytes = 0;
  try {
    const lines = createInterface({
      input: toCheck.pipe(createGunzip()),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of lines) {
      if (header === null) header = JSON.parse(line) as BackupHeader;
      else if (line.startsWith('{"file_end":')) bytes += (JSON.parse(line) as FileEndLine).size;
      last = line;
    }
    await written;
    const end = last.startsWith('{"end":') ? (JSON.parse(last) as EndLine) : null;
    if (!header || !end) throw new Error('cut short');
    renameSync(partial, file);
    return { tables: header.tables.length, rows: end.rows, files: end.files ?? 0, bytes };
  } catch (error) {
    await written.catch(() => {});
    rmSync(partial, { force: true });
    throw new Error(
      `The running server's backup was cut short (${(error as Error).message}); no file was written. Its log says why.`,
    );
  } finally {
    socket.destroy();
  }
}
