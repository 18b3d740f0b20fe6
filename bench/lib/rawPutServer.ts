/**
 * The reference of `npm run bench -- attachments`' upload figure: a bare Fastify 5 app with one
 * route, `PUT /raw`, that streams the request body into a new file in a temporary folder and answers
 * 201 with the bytes written. No session, no database, no multipart, no hashing: what moving the
 * same bytes from a socket to the disk costs on this machine. Run as its own process:
 *
 *   node --import tsx bench/lib/rawPutServer.ts <folder>
 *
 * It prints one JSON line `{"url": …}` when it listens, and exits when its stdin closes.
 */
import { createWriteStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Fastify from 'fastify';

const folder = process.argv[2];
if (!folder) throw new Error('usage: rawPutServer.ts <folder>');

const app = Fastify({ logger: false });
// Any type: hand the request stream to the route untouched (no buffering, no body limit).
app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

let n = 0;
app.put('/raw', async (request, reply) => {
  const file = path.join(folder, `raw-${process.pid}-${++n}`);
  await pipeline(request.body as Readable, createWriteStream(file));
  const { size } = await stat(file);
  // The app keeps one copy per sha256; the reference keeps none, so the folder does not fill up.
  await unlink(file);
  return reply.code(201).send({ size });
});

const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url })}\n`);
const close = () => {
  void app.close().finally(() => process.exit(0));
};
process.stdin.on('end', close);
process.stdin.on('close', close);
process.stdin.resume();
process.once('SIGTERM', close);
