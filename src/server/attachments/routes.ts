import { randomUUID } from 'node:crypto';
import { link } from 'node:fs/promises';
import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { attachmentPageSchema, attachmentSchema } from '../../shared/apiSchemas';
import {
  attachmentUploadFormSchema,
  attachmentUploadQuerySchema,
  attachmentUuidSchema,
} from '../../shared/attachmentSchemas';
import { ATTACHMENTS_PER_PAGE, opensInline, tooLargeMessage } from '../../shared/attachments';
import { paginated } from '../../shared/item';
import { pageQuerySchema } from '../../shared/schemas';
import type { UserRow } from '../auth/users';
import { currentUser } from '../http/context';
import { HttpError, notFound, parseOrThrow, unprocessable } from '../http/errors';
import { runWrite, sendWrite, type WriteResult } from '../http/idempotency';
import { pathId } from '../http/paths';
import { findVisibleItem } from '../items/queries';
import type { UploadResult } from '../metrics/registry';
import {
  checkedInHandler,
  errorAnswer,
  idParams,
  invalidAnswer,
  noContent,
  routeDoc,
} from '../openapi/routeDoc';
import { contentDisposition, etagListMatches, etagOf, parseRange } from './contentHeaders';
import { unlinkIfThere } from './diskStore';
import { contentKey, thumbnailKey } from './fileStore';
import {
  type AttachmentRef,
  attachableItem,
  createAttachment,
  deleteAttachment,
  knownUpload,
  listItemAttachments,
  visibleAttachment,
} from './service';
import { FILE_FIELD, imageFacts, receiveUpload, type SpooledFile, UUID_FIELD } from './upload';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a file's bytes are answered with besides their type (SYNC.md A9): a document that runs nothing
 * and loads nothing (`sandbox`, every source `none` but its own inline styles, which a browser's
 * image and text views use), so a file that got past the sniffing still cannot act as this origin.
 */
export const FILE_CONTENT_SECURITY_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'";

/** How long a browser keeps a file's bytes before asking again (its ETag then answers 304). */
export const FILE_MAX_AGE_SECONDS = 3600;

/**
 * How much a form may add around its file before its declared length alone says the file is over
 * the limit: the parts' boundaries and headers and the uuid field are a few hundred bytes.
 */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** Files on items (ARCHITECTURE §4 'Files on items', SYNC.md A4–A11). */
export async function attachmentRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const files = app.files;
  const maxBytes = app.config.attachmentMaxBytes;
  // Only this plugin's routes read multipart bodies; everywhere else one is a 415 as before.
  await app.register(fastifyMultipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 2, fieldSize: 1024, parts: 3, headerPairs: 100 },
  });
  // A file's bytes go out under their own policy, in place of the app's (which allows its scripts).
  const fileHeaders = async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    reply.header('Content-Security-Policy', FILE_CONTENT_SECURITY_POLICY);
    reply.header('X-Content-Type-Options', 'nosniff');
    return payload;
  };

  const TAGS = ['Files'];
  const itemParams = idParams('The item’s id.');
  const fileParams = z.object({
    id: z.string().describe('The file’s id, or the uuid of one of the caller’s own files.'),
  });
  const notSeen = errorAnswer('No such item, or not one the caller may see.');
  const noFile = errorAnswer('No such file, or not one the caller may see.');
  /** The file in the path: an id, or a uuid of the caller's (a device's queued delete names it so). */
  const fileRef = (request: FastifyRequest): AttachmentRef => {
    const raw = String((request.params as { id?: string }).id ?? '');
    return UUID.test(raw) ? { uuid: raw.toLowerCase() } : pathId(request, 'File');
  };

  const listDoc = routeDoc({
    summary: 'List an item’s files',
    description:
      'Newest first, 50 a page; for anyone who sees the item. Metadata only: the bytes are at `url`.',
    tags: TAGS,
    params: itemParams,
    querystring: checkedInHandler(pageQuerySchema),
    answers: {
      200: { description: 'One page of files.', schema: attachmentPageSchema },
      404: notSeen,
      422: invalidAnswer(),
    },
  });
  app.get('/items/:id/attachments', { schema: listDoc, config: { tokenAccess: 'read' } }, async (request) => {
    const item = await findVisibleItem(db, currentUser(request).id, pathId(request));
    if (!item) throw notFound();
    const { page = 1 } = parseOrThrow(pageQuerySchema, request.query);
    const { data, total } = await listItemAttachments(db, item.id, page, ATTACHMENTS_PER_PAGE);
    return paginated(data, page, ATTACHMENTS_PER_PAGE, total);
  });

  const uploadDoc = routeDoc({
    summary: 'Attach a file to an item',
    description: `\`multipart/form-data\` with one file part named \`${FILE_FIELD}\` and, before or after it, an optional \`${UUID_FIELD}\` field (or \`?uuid=\`): the same uuid again answers the first upload (200) and stores nothing more. Streamed to storage, never held whole. The type is read from the bytes; images get a thumbnail of at most 400 px. At most \`ATTACHMENT_MAX_BYTES\` (25 MB unless the server says otherwise: the 413 names the limit). Owners and editors only.`,
    tags: TAGS,
    params: itemParams,
    querystring: checkedInHandler(attachmentUploadQuerySchema),
    body: checkedInHandler(attachmentUploadFormSchema),
    consumes: ['multipart/form-data'],
    answers: {
      200: { description: 'A file with this uuid exists already: that file.', schema: attachmentSchema },
      201: { description: 'The new file.', schema: attachmentSchema },
      400: errorAnswer('The body is not well-formed multipart/form-data.'),
      403: errorAnswer('The caller only views the campaign.'),
      404: notSeen,
      413: errorAnswer('The file is larger than the limit, which the message names; nothing of it is kept.'),
      415: errorAnswer('The body is not multipart/form-data.'),
      422: invalidAnswer('No file part, more than one, a uuid that is not one, or one naming another file.'),
    },
  });
  app.post(
    '/items/:id/attachments',
    {
      schema: uploadDoc,
      config: { tokenAccess: 'write' },
      // Every answer counts, also a refusal before the handler (sign-in, forgery, the rate limit).
      onResponse: async (_request, reply) => {
        app.metrics.attachmentUploads.inc({ result: uploadResult(reply.statusCode) });
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const itemId = pathId(request);
      // Refusals that need no byte of the body come first: the unread rest is discarded after the answer.
      await attachableItem(db, user, itemId);
      const query = parseOrThrow(attachmentUploadQuerySchema, request.query);
      if (!request.isMultipart())
        throw new HttpError(415, `Send the file as multipart/form-data, in a part named “${FILE_FIELD}”.`);
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD_BYTES)
        throw new HttpError(413, tooLargeMessage(maxBytes));
      if (query.uuid) {
        const known = await knownUpload(db, user, itemId, query.uuid.toLowerCase());
        if (known) return sendWrite(reply, known);
      }

      const { file, uuidField } = await receiveUpload(request, files.spoolDir, maxBytes);
      let result: WriteResult;
      const keep = `${file.path}.keep`;
      try {
        const uuid = chosenUuid(query.uuid, uuidField);
        const firstSeen = query.uuid === undefined && uuidField !== undefined;
        result = await storeUpload(request, user, itemId, file, uuid, keep, firstSeen);
      } finally {
        // Gone before the answer leaves: a client that reads it finds no spool file of its upload.
        await Promise.all([file.path, keep, `${file.path}.again`].map(unlinkIfThere));
      }
      return sendWrite(reply, result);
    },
  );

  /**
   * Stores a spooled upload's bytes (and its image's thumbnail) and records its row, or answers the
   * first upload of its uuid without storing anything (A4).
   */
  const storeUpload = async (
    request: FastifyRequest,
    user: UserRow,
    itemId: number,
    file: SpooledFile,
    uuid: string,
    keep: string,
    firstSeen: boolean,
  ): Promise<WriteResult> => {
    // A uuid only in the form is first seen now: a retry's bytes are then neither stored nor
    // thumbnailed. One in the query was asked before the body (a retry racing since is answered in
    // the transaction), and one the server made up is new.
    if (firstSeen) {
      const known = await knownUpload(db, user, itemId, uuid);
      if (known) return known;
    }
    const image = await imageFacts(file.path, file.type);
    const key = contentKey(file.sha256);
    const thumbKey = thumbnailKey(file.sha256);
    // A second name for the spool file: if a purge removes the bytes between their store and the
    // row's commit (purge.ts), the write stores them again from it.
    await link(file.path, keep);
    await files.putFile(key, file.path);
    if (image.thumbnail) await files.putBytes(thumbKey, image.thumbnail, 'image/webp');
    const ensureStored = async () => {
      if (!(await files.has(key))) {
        const again = `${file.path}.again`;
        await link(keep, again);
        await files.putFile(key, again);
      }
      if (image.thumbnail && !(await files.has(thumbKey)))
        await files.putBytes(thumbKey, image.thumbnail, 'image/webp');
    };
    return runWrite(app, request, user.id, (tx) =>
      createAttachment(
        tx,
        user,
        {
          uuid,
          itemId,
          name: file.name,
          type: file.type,
          size: file.size,
          sha256: file.sha256,
          width: image.width,
          height: image.height,
          hasThumbnail: image.thumbnail !== null,
        },
        ensureStored,
      ),
    );
  };

  /**
   * Answers with a file's bytes and the headers of A9, or the 304, 206 and 416 they call for. `open`
   * gives the bytes (all, or the range, both ends included), null when the store has none.
   */
  const sendBytes = async (
    request: FastifyRequest,
    reply: FastifyReply,
    stored: { etag: string; size: number; type: string; disposition: string },
    open: (part: { start: number; end: number } | undefined) => Promise<Readable | Buffer | null>,
  ) => {
    const validators = {
      ETag: stored.etag,
      'Cache-Control': `private, max-age=${FILE_MAX_AGE_SECONDS}`,
      'Accept-Ranges': 'bytes',
    };
    if (etagListMatches(request.headers['if-none-match'], stored.etag))
      return reply.headers(validators).status(304).send();
    const ifRange = request.headers['if-range'] as string | undefined;
    // A Range under an If-Range that names other bytes (or a date, which is no validator of these)
    // gets the whole file, as RFC 9110 says.
    const range =
      ifRange !== undefined && !etagListMatches(ifRange, stored.etag)
        ? ({ kind: 'whole' } as const)
        : parseRange(request.headers.range, stored.size);
    if (range.kind === 'unsatisfiable') {
      throw new HttpError(
        416,
        `The range starts past the end of the file (${stored.size} bytes).`,
        {},
        { 'Content-Range': `bytes */${stored.size}`, 'Accept-Ranges': 'bytes' },
      );
    }
    const part = range.kind === 'part' ? { start: range.start, end: range.end } : undefined;
    // A HEAD gets an empty stream, which keeps the Content-Length set here (fastify counts any other body).
    const body = request.method === 'HEAD' ? Readable.from([]) : await open(part);
    if (body === null) {
      request.log.warn({ etag: stored.etag }, 'a file row names bytes the file store does not hold');
      throw notFound('File');
    }
    reply
      .headers({
        ...validators,
        'Content-Disposition': stored.disposition,
        'Content-Length': String(part ? part.end - part.start + 1 : stored.size),
      })
      .type(stored.type);
    if (part) reply.status(206).header('Content-Range', `bytes ${part.start}-${part.end}/${stored.size}`);
    return reply.send(body);
  };

  const bytes = z.string().meta({ format: 'binary' });
  const bytesAnswers = (what: string) => ({
    200: { description: what, media: '*/*', schema: bytes },
    206: {
      description: 'The range asked for (`Range: bytes=a-b`), with `Content-Range`.',
      media: '*/*',
      schema: bytes,
    },
    304: noContent('`If-None-Match` named this ETag: the bytes are unchanged.'),
    404: noFile,
    416: errorAnswer('The range starts past the end of the file (`Content-Range: bytes */size`).'),
  });

  const contentDoc = routeDoc({
    summary: 'Read a file',
    description:
      'The bytes, typed as sniffed when they were uploaded, for anyone who sees the item. `Content-Disposition` is `inline` only for images (never SVG), PDFs and plain text, `attachment` for everything else; `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox` always. `ETag` is the sha256 (`If-None-Match` gives 304); one `Range` gives 206.',
    tags: TAGS,
    params: fileParams,
    answers: bytesAnswers('The file’s bytes.'),
  });
  app.get(
    '/attachments/:id/content',
    { schema: contentDoc, config: { tokenAccess: 'read' }, onSend: fileHeaders },
    async (request, reply) => {
      const { attachment: a } = await visibleAttachment(db, currentUser(request), fileRef(request));
      return sendBytes(
        request,
        reply,
        {
          etag: etagOf(a.sha256),
          size: Number(a.size),
          type: a.type,
          disposition: contentDisposition(opensInline(a.type) ? 'inline' : 'attachment', a.name),
        },
        (part) => files.read(contentKey(a.sha256), part),
      );
    },
  );

  const thumbnailDoc = routeDoc({
    summary: 'Read a file’s thumbnail',
    description:
      'A WebP of at most 400 px on its longest side, for an image the server could read (the file’s `thumbnail_url`); 404 for any other file. Headers as for the content.',
    tags: TAGS,
    params: fileParams,
    answers: bytesAnswers('The thumbnail (image/webp).'),
  });
  app.get(
    '/attachments/:id/thumbnail',
    { schema: thumbnailDoc, config: { tokenAccess: 'read' }, onSend: fileHeaders },
    async (request, reply) => {
      const { attachment: a } = await visibleAttachment(db, currentUser(request), fileRef(request));
      if (!a.has_thumbnail) throw notFound('Thumbnail');
      // A thumbnail is small and its length is not recorded: read whole, answered from memory.
      const stream = await files.read(thumbnailKey(a.sha256));
      if (!stream) throw notFound('Thumbnail');
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      return sendBytes(
        request,
        reply,
        {
          etag: etagOf(a.sha256, '-thumb'),
          size: bytes.length,
          type: 'image/webp',
          disposition: contentDisposition('inline', `${a.name.replace(/\.[^.]*$/, '')}.webp`),
        },
        async (part) => (part ? bytes.subarray(part.start, part.end + 1) : bytes),
      );
    },
  );

  const deleteDoc = routeDoc({
    summary: 'Delete a file',
    description:
      'By whoever added it, or whoever may delete its item (the item’s creator or its campaign’s). Its bytes stay until the 30-day purge finds no file naming them.',
    tags: TAGS,
    params: fileParams,
    answers: {
      204: noContent('Deleted.'),
      403: errorAnswer('The caller sees the file but may not delete it.'),
      404: noFile,
    },
  });
  app.delete(
    '/attachments/:id',
    { schema: deleteDoc, config: { tokenAccess: 'write' } },
    async (request, reply) => {
      const user = currentUser(request);
      const ref = fileRef(request);
      return sendWrite(reply, await runWrite(app, request, user.id, (tx) => deleteAttachment(tx, user, ref)));
    },
  );
}

/** The upload's uuid: the query's or the form's (the same when both are given), else a new one. */
/** What an upload's answer says came of it, for /metrics. */
function uploadResult(status: number): UploadResult {
  if (status === 201) return 'stored';
  if (status < 300) return 'repeated';
  if (status === 413) return 'too_large';
  return status < 500 ? 'refused' : 'failed';
}

function chosenUuid(fromQuery: string | undefined, fromForm: string | undefined): string {
  let form: string | undefined;
  if (fromForm !== undefined) {
    const parsed = attachmentUuidSchema.safeParse(fromForm.trim());
    if (!parsed.success) throw unprocessable({ [UUID_FIELD]: ['Must be a UUID.'] });
    form = parsed.data.toLowerCase();
  }
  const query = fromQuery?.toLowerCase();
  if (query !== undefined && form !== undefined && query !== form)
    throw unprocessable({ [UUID_FIELD]: ['The form and the query name different uuids.'] });
  return query ?? form ?? randomUUID();
}
