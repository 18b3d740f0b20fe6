import { createHash, randomInt, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AddressObject, ParsedMail } from 'mailparser';
import { cleanFileName } from '../../shared/attachments';
import { COMMENT_BODY_MAX, commentCreateSchema } from '../../shared/comments';
import { CAMPAIGN_ADDRESS_PATTERN, normalizeEmail } from '../../shared/email';
import { mailPlainText, titleFromSubject } from '../../shared/emailText';
import { DESCRIPTION_MAX_LENGTH, type Item } from '../../shared/item';
import { itemCreateSchema } from '../../shared/schemas';
import { isBlankTitle } from '../../shared/text';
import { unlinkIfThere } from '../attachments/diskStore';
import { contentKey, thumbnailKey } from '../attachments/fileStore';
import { createAttachment } from '../attachments/service';
import { SNIFF_HEAD_BYTES, sniffType } from '../attachments/sniff';
import type { NewAttachment } from '../attachments/store';
import { imageFacts } from '../attachments/upload';
import type { UserRow } from '../auth/users';
import { roleInFamily } from '../campaigns/access';
import { createComment } from '../comments/service';
import type { Executor } from '../db/client';
import { loadReplyKey, readReplyLocalPart } from '../email/replyAddress';
import { HttpError } from '../http/errors';
import { runWrite } from '../http/idempotency';
import { findVisibleItem } from '../items/queries';
import { createItem } from '../items/service';
import {
  campaignByToken,
  madeBefore,
  markViaEmail,
  recordInbound,
  setInboundItem,
  userByVerifiedEmail,
} from './store';

/** A DNS lookup as mailauth makes it (`dns.promises.resolve`'s shape); tests publish records with one. */
export type DnsResolver = (name: string, rrtype: string) => Promise<string[][] | string[]>;

/** One message as it came: its bytes and its envelope (SMTP's MAIL FROM and RCPT TO, or the HTTP route's). */
export interface IncomingMessage {
  raw: Buffer;
  envelope: { from: string | null; to: readonly string[] };
  /** The SMTP client's address; absent over HTTP, where only an aligned DKIM signature counts. */
  remoteAddress?: string;
  helo?: string;
}

/** What came of a message for one of its recipients. */
export interface InboundOutcome {
  to: string;
  outcome: 'task' | 'comment' | 'refused';
  reason?: string;
  item_id?: number;
}

/** What reads and acts on incoming mail: the SMTP listener and POST /api/inbound/email share one. */
export interface InboundReceiver {
  receiveMessage(message: IncomingMessage): Promise<InboundOutcome[]>;
  /** Whether RCPT TO may name this address (ours, and naming a live campaign or a valid reply token). */
  acceptsRecipient(address: string): Promise<boolean>;
}

/** At most this many files of one mail become attachments; the rest are left out (and logged). */
export const MAIL_FILES_MAX = 20;

/** The title of a task whose mail had no subject. */
export const NO_SUBJECT = '(no subject)';

const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new campaign token: 22 characters of [a-z0-9] (about 113 bits), from the CSPRNG. */
export function newInboundToken(): string {
  let token = '';
  for (let i = 0; i < 22; i++) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return token;
}

/** A campaign's address from its token. */
export const campaignAddress = (token: string, domain: string) => `c-${token}@${domain}`;

// runWrite (the API's write funnel: one transaction, the write effects) reads an Idempotency-Key
// and a token's name from the request; mail has neither, so it gets a request that carries none.
const MAIL_REQUEST = { headers: {}, session: null } as unknown as FastifyRequest;

/** A refusal: what is recorded and logged, and what SMTP answers for a lone recipient. */
class Refusal extends Error {}

/** Thrown inside a write whose message made something already: its transaction rolls back. */
class MadeBefore extends Error {}

const REASONS = {
  unreadable: 'The message could not be read as MIME.',
  noFrom: 'The message does not name exactly one sender (From).',
  notOurs: 'The address is not at this server’s mail domain.',
  unknownAddress: 'No campaign or reply has this address (unknown, or replaced by a new one).',
  dmarc: 'The sender’s domain did not vouch for the message (no DMARC pass with an aligned signature).',
  stranger: 'The sender’s address is not a verified address of anyone here.',
  notMember: 'The sender is not a member of this campaign.',
  viewer: 'The sender only views this campaign and cannot add tasks to it.',
  notReplier: 'The sender is not the person this reply address was made for.',
  lostItem: 'The person no longer sees this item.',
  noText: 'The reply has no text of its own (quoted history aside).',
  empty: 'The message has no subject, no text and no files.',
} as const;

/** A message read once for all its recipients: its parse, sender and authentication, each on demand. */
interface ReadMessage {
  parsed: ParsedMail;
  messageId: string;
  from: string | null;
}

/** A file of a mail whose bytes are stored already, ready to be recorded on the new task. */
type StoredFile = Omit<NewAttachment, 'uuid' | 'itemId' | 'userId'> & { bytes: Buffer };

/**
 * The receiver of mail in (ARCHITECTURE §4 'Email', 'In'): `resolver` answers mailauth's DNS
 * questions (DKIM keys, DMARC policies, SPF), by default the system's.
 */
export function inboundReceiver(app: FastifyInstance, resolver?: DnsResolver): InboundReceiver {
  const db = app.database.db;
  const settings = app.config.email.inbound;
  let replyKey: Promise<Buffer> | null = null;
  const key = () => {
    replyKey ??= loadReplyKey(db).catch((error: unknown) => {
      replyKey = null;
      throw error;
    });
    return replyKey;
  };

  /** The recipient's local part when the address is at our domain, else null. */
  const localPartOf = (address: string): string | null => {
    const at = address.lastIndexOf('@');
    if (at < 1 || settings.domain === null) return null;
    if (address.slice(at + 1).toLowerCase() !== settings.domain.toLowerCase()) return null;
    return address.slice(0, at).toLowerCase();
  };

  const acceptsRecipient = async (address: string): Promise<boolean> => {
    const local = localPartOf(address.trim());
    if (local === null) return false;
    const campaign = CAMPAIGN_ADDRESS_PATTERN.exec(local);
    if (campaign) return (await campaignByToken(db, campaign[1]!)) !== null;
    return readReplyLocalPart(await key(), local) !== null;
  };

  const readMessage = async (raw: Buffer): Promise<ReadMessage> => {
    // The mail libraries load with the first message: a server that takes no mail never holds them
    // (about 20 MB of an idle container, issue 68). Outside the try: a failed load is no bad message.
    const { simpleParser } = await import('mailparser');
    let parsed: ParsedMail;
    try {
      parsed = await simpleParser(chunked(raw), { skipTextToHtml: true, skipImageLinks: true });
    } catch {
      throw new Refusal(REASONS.unreadable);
    }
    const senders = (parsed.from?.value ?? []).filter((a) => a.address);
    const from = senders.length === 1 ? normalizeEmail(senders[0]!.address!) : null;
    // A message without a Message-ID is known by its bytes, so a redelivery still makes nothing twice.
    const messageId = (parsed.messageId ?? `<sha256.${await sha256Of(raw)}@outpost>`).slice(0, 998);
    return { parsed, messageId, from };
  };

  /**
   * Whether the From domain vouches for the message: a DMARC pass (mailauth), with the aligned
   * identifier a DKIM signature when there is no SMTP client to check SPF against (the HTTP route).
   */
  const authenticated = async (message: IncomingMessage, from: string): Promise<boolean> => {
    if (settings.trustUnauthenticated) return true;
    const { authenticate } = await import('mailauth');
    try {
      const result = await authenticate(chunked(message.raw), {
        ...(message.remoteAddress ? { ip: message.remoteAddress } : {}),
        ...(message.helo ? { helo: message.helo } : {}),
        ...(message.envelope.from ? { sender: message.envelope.from } : {}),
        mta: settings.domain ?? undefined,
        resolver,
        disableArc: true,
        disableBimi: true,
      });
      const dmarc = result.dmarc;
      if (dmarc === false || dmarc.status.result !== 'pass') return false;
      // mailauth read the same single From as we did (no second From header to hide behind).
      const headerFrom = [result.dkim.headerFrom ?? []].flat();
      if (headerFrom.length !== 1 || String(headerFrom[0]).toLowerCase() !== from.toLowerCase()) return false;
      return message.remoteAddress ? true : Boolean(dmarc.alignment.dkim.result);
    } catch (error) {
      app.log.warn({ err: error }, 'inbound mail: authentication failed with an error');
      return false;
    }
  };

  /** Stores a mail's files' bytes (and images' thumbnails) as an upload does, before the write. */
  const storeFiles = async (
    parsed: ParsedMail,
    logContext: Record<string, unknown>,
  ): Promise<StoredFile[]> => {
    const candidates = parsed.attachments.filter((a) => !a.related && Buffer.isBuffer(a.content));
    const stored: StoredFile[] = [];
    if (candidates.length > 0) await mkdir(app.files.spoolDir, { recursive: true });
    for (const attachment of candidates) {
      const bytes = attachment.content;
      if (
        stored.length >= MAIL_FILES_MAX ||
        bytes.length > app.config.attachmentMaxBytes ||
        bytes.length === 0
      ) {
        app.log.info(
          { ...logContext, size: bytes.length },
          'inbound mail: a file was left out (too large, empty or too many)',
        );
        continue;
      }
      const spool = path.join(app.files.spoolDir, `inbound-${randomUUID()}`);
      try {
        await writeFile(spool, bytes, { flag: 'wx', flush: true });
        const head = bytes.subarray(0, SNIFF_HEAD_BYTES);
        const type = await sniffType(spool, head, bytes.length <= SNIFF_HEAD_BYTES);
        const image = await imageFacts(spool, type);
        const sha256 = await sha256Of(bytes);
        await app.files.putFile(contentKey(sha256), spool);
        if (image.thumbnail) await app.files.putBytes(thumbnailKey(sha256), image.thumbnail, 'image/webp');
        stored.push({
          name: cleanFileName(attachment.filename ?? '') || 'attachment',
          type,
          size: bytes.length,
          sha256,
          width: image.width,
          height: image.height,
          hasThumbnail: image.thumbnail !== null,
          bytes,
        });
      } finally {
        await unlinkIfThere(spool);
      }
    }
    return stored;
  };

  /** Puts a file's bytes back when a purge removed them between their store and the write (purge.ts). */
  const ensureStored = (file: StoredFile) => async () => {
    if (await app.files.has(contentKey(file.sha256))) return;
    const again = path.join(app.files.spoolDir, `inbound-${randomUUID()}`);
    try {
      await mkdir(app.files.spoolDir, { recursive: true });
      await writeFile(again, file.bytes, { flag: 'wx', flush: true });
      await app.files.putFile(contentKey(file.sha256), again);
    } finally {
      await unlinkIfThere(again);
    }
  };

  /**
   * Runs a write that makes something from a message through the API's funnel (history,
   * notifications, webhooks, sync), claiming the message for this address first: null when it made
   * something already (a redelivery). A refusal the write's rules give (403, 404, 422) is a Refusal.
   */
  const write = async (
    user: UserRow,
    claim: { messageId: string; from: string; to: string; outcome: 'task' | 'comment' },
    make: (tx: Executor) => Promise<{ itemId: number; result: { status: number; body: unknown } }>,
  ): Promise<number | null> => {
    try {
      const done = await runWrite(app, MAIL_REQUEST, user.id, async (tx) => {
        await markViaEmail(tx);
        if (!(await recordInbound(tx, { ...claim, reason: null, itemId: null }))) throw new MadeBefore();
        const { itemId, result } = await make(tx);
        await setInboundItem(tx, claim.messageId, claim.to, itemId);
        return { ...result, body: { made: itemId } };
      });
      return (done.body as { made: number }).made;
    } catch (error) {
      if (error instanceof MadeBefore) return null;
      if (error instanceof HttpError && error.statusCode < 500) throw new Refusal(error.message);
      throw error;
    }
  };

  const makeTask = async (
    message: ReadMessage,
    to: string,
    token: string,
    sender: () => Promise<boolean>,
  ): Promise<InboundOutcome> => {
    const campaignId = await campaignByToken(db, token);
    if (campaignId === null) throw new Refusal(REASONS.unknownAddress);
    if (!(await sender())) throw new Refusal(REASONS.dmarc);
    const user = await userByVerifiedEmail(db, message.from!);
    if (!user) throw new Refusal(REASONS.stranger);
    const role = await roleInFamily(db, user.id, campaignId);
    if (role === null) throw new Refusal(REASONS.notMember);
    if (role === 'viewer') throw new Refusal(REASONS.viewer);
    const { parsed } = message;
    const subject = titleFromSubject(parsed.subject ?? '');
    const title = isBlankTitle(subject) ? NO_SUBJECT : subject;
    const description = cutAt(mailPlainText(parsed.text ?? ''), DESCRIPTION_MAX_LENGTH);
    const context = { to, message_id: message.messageId };
    const files = await storeFiles(parsed, context);
    if (title === NO_SUBJECT && description === '' && files.length === 0) throw new Refusal(REASONS.empty);
    const input = itemCreateSchema.parse({
      type: 'task',
      title,
      description: description === '' ? null : description,
      parent_id: campaignId,
    });
    const itemId = await write(
      user,
      { messageId: message.messageId, from: message.from!, to, outcome: 'task' },
      async (tx) => {
        const result = await createItem(tx, user, input);
        const item = result.body as Item;
        for (const file of files) {
          const { bytes: _bytes, ...facts } = file;
          await createAttachment(
            tx,
            user,
            { ...facts, uuid: randomUUID(), itemId: item.id },
            ensureStored(file),
          );
        }
        return { itemId: item.id, result };
      },
    );
    return itemId === null ? duplicate(message, to) : { to, outcome: 'task', item_id: itemId };
  };

  const makeComment = async (
    message: ReadMessage,
    to: string,
    reply: { userId: number; itemId: number },
    sender: () => Promise<boolean>,
  ): Promise<InboundOutcome> => {
    if (!(await sender())) throw new Refusal(REASONS.dmarc);
    const user = await userByVerifiedEmail(db, message.from!);
    if (!user) throw new Refusal(REASONS.stranger);
    if (user.id !== reply.userId) throw new Refusal(REASONS.notReplier);
    if (!(await findVisibleItem(db, user.id, reply.itemId))) throw new Refusal(REASONS.lostItem);
    const body = cutAt(mailPlainText(message.parsed.text ?? ''), COMMENT_BODY_MAX);
    const input = commentCreateSchema.safeParse({ body });
    if (!input.success) throw new Refusal(REASONS.noText);
    const itemId = await write(
      user,
      { messageId: message.messageId, from: message.from!, to, outcome: 'comment' },
      async (tx) => ({
        itemId: reply.itemId,
        result: await createComment(tx, user, reply.itemId, input.data),
      }),
    );
    return itemId === null ? duplicate(message, to) : { to, outcome: 'comment', item_id: itemId };
  };

  /** The answer to a message that made something before: what it made, and nothing new. */
  const duplicate = async (message: ReadMessage, to: string): Promise<InboundOutcome> => {
    const made = await madeBefore(db, message.messageId, to);
    return {
      to,
      outcome: made?.outcome ?? 'refused',
      reason: 'This message was received before; nothing more was made of it.',
      ...(made?.item_id != null ? { item_id: made.item_id } : {}),
    };
  };

  const refuse = async (to: string, message: ReadMessage | null, reason: string): Promise<InboundOutcome> => {
    const messageId = message?.messageId ?? null;
    await recordInbound(db, {
      messageId,
      from: message?.from ?? null,
      to,
      outcome: 'refused',
      reason,
      itemId: null,
    });
    // Who, to whom and why: never a word of the message itself.
    app.log.info(
      { inbound: { to, from: message?.from ?? null, message_id: messageId, reason } },
      `inbound mail refused: ${reason}`,
    );
    return { to, outcome: 'refused', reason };
  };

  const receiveMessage = async (message: IncomingMessage): Promise<InboundOutcome[]> => {
    let read: ReadMessage | null = null;
    let unreadable: string | null = null;
    try {
      read = await readMessage(message.raw);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      unreadable = error.message;
    }
    // Without an envelope's recipients (a provider's HTTP post), the message's own at our domain.
    const named =
      message.envelope.to.length > 0
        ? message.envelope.to
        : read
          ? headerRecipients(read.parsed).filter((to) => localPartOf(to) !== null)
          : [];
    const recipients = [...new Set(named.map((to) => normalizeEmail(to).toLowerCase()))];
    // DMARC is asked at most once a message, and only for a recipient that gets that far.
    let vouched: Promise<boolean> | null = null;
    const sender = () => {
      vouched ??= read?.from ? authenticated(message, read.from) : Promise.resolve(false);
      return vouched;
    };
    const outcomes: InboundOutcome[] = [];
    for (const to of recipients) {
      try {
        if (unreadable !== null || read === null) throw new Refusal(unreadable ?? REASONS.unreadable);
        const local = localPartOf(to);
        if (local === null) throw new Refusal(REASONS.notOurs);
        if (read.from === null) throw new Refusal(REASONS.noFrom);
        if (await madeBefore(db, read.messageId, to)) {
          outcomes.push(await duplicate(read, to));
          continue;
        }
        const campaign = CAMPAIGN_ADDRESS_PATTERN.exec(local);
        const reply = campaign ? null : readReplyLocalPart(await key(), local);
        let outcome: InboundOutcome;
        if (campaign) outcome = await makeTask(read, to, campaign[1]!, sender);
        else if (reply) outcome = await makeComment(read, to, reply, sender);
        else throw new Refusal(REASONS.unknownAddress);
        if (outcome.reason === undefined)
          app.log.info(
            { inbound: { to, from: read.from, message_id: read.messageId, item_id: outcome.item_id } },
            `inbound mail made a ${outcome.outcome}`,
          );
        outcomes.push(outcome);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        outcomes.push(await refuse(to, read, error.message));
      }
    }
    return outcomes;
  };

  return { receiveMessage, acceptsRecipient };
}

/** The addresses a message's To, Cc and Delivered-To headers name. */
function headerRecipients(parsed: ParsedMail): string[] {
  // mailparser reads Delivered-To as an address header too: one object, or one per header line.
  const delivered = [parsed.headers.get('delivered-to') ?? []].flat() as unknown[];
  const fields = [parsed.to, parsed.cc, ...delivered].flat() as unknown[];
  const addresses = fields
    .flatMap((field) => (field as Partial<AddressObject> | undefined)?.value ?? [])
    .flatMap((address) => [address, ...(address.group ?? [])])
    .map((address) => address.address ?? '');
  return addresses.map((address) => address.trim()).filter((address) => address.includes('@'));
}

/** Bytes read in slices of this size: a parser handed a whole 25 MB buffer works through it in one go. */
const SLICE_BYTES = 64 * 1024;

/**
 * A message's bytes as a stream of slices, so that parsing and authenticating it yield to other
 * requests between slices (a whole buffer held the event loop for over 200 ms on a 18 MB message).
 */
function chunked(raw: Buffer): Readable {
  function* slices() {
    for (let at = 0; at < raw.length; at += SLICE_BYTES) yield raw.subarray(at, at + SLICE_BYTES);
  }
  return Readable.from(slices(), { objectMode: false });
}

/** The SHA-256 of bytes in hex, a megabyte at a time with a turn for other work between (25 MB take ~50 ms). */
async function sha256Of(bytes: Buffer): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.length; at += 1024 * 1024) {
    hash.update(bytes.subarray(at, at + 1024 * 1024));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return hash.digest('hex');
}

/** Text cut to at most `max` characters, never between the halves of a surrogate pair. */
function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}
