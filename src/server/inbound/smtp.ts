import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type DnsResolver, inboundReceiver } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The SMTP listener of mail in (inbound/smtp.ts): its bound port, null when it is off. */
    inboundSmtp: { port: number | null };
  }
}

/** Recipients one message may name; a message to more is refused past them (452). */
export const MAIL_RECIPIENTS_MAX = 20;

/** An SMTP refusal: smtp-server answers an error with its `responseCode`. */
function smtpError(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

/** An SMTP reply's text on one line, whatever a reason holds. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/**
 * The SMTP listener of mail in (ARCHITECTURE §4 'Email', 'In') on INBOUND_SMTP_PORT, when it is
 * set: no AUTH and no relay (RCPT TO names one of our live addresses, or gets 550 5.1.1), STARTTLS
 * off, messages up to INBOUND_MAX_BYTES (552 past it, nothing of it kept). Each message is handed to
 * the receiver (service.ts) and answered 250 once it is stored, or 550 with the reason when its one recipient
 * refused it. Decorates the app with the bound port (a port of 0 picks a free one) and returns how
 * to stop it. `resolver` answers mailauth's DNS questions (the system's by default).
 */
export async function startInboundSmtp(
  app: FastifyInstance,
  resolver?: DnsResolver,
): Promise<{ close(): Promise<void> }> {
  const settings = app.config.email.inbound;
  const state = { port: null as number | null };
  app.decorate('inboundSmtp', state);
  if (settings.smtpPort === null || settings.domain === null) return { close: async () => {} };
  const maxBytes = settings.maxBytes;
  const receiver = inboundReceiver(app, resolver);
  // Loaded only when the listener is configured: most servers take no mail by SMTP.
  const { SMTPServer } = await import('smtp-server');

  const server = new SMTPServer({
    name: settings.domain,
    banner: 'Outpost mail in',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: maxBytes,
    // A reverse lookup per connection costs DNS time and tells us nothing we act on.
    disableReverseLookup: true,
    logger: false,
    // Each connection may hold one message of up to INBOUND_MAX_BYTES in memory while it is read.
    maxClients: 20,
    closeTimeout: 5_000,
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAIL_RECIPIENTS_MAX) {
        callback(smtpError(452, '4.5.3 Too many recipients'));
        return;
      }
      receiver.acceptsRecipient(address.address).then(
        (ours) => {
          if (!ours)
            app.log.info(
              { inbound: { to: address.address, remote: session.remoteAddress } },
              'inbound mail refused at RCPT: not an address of ours (unknown, replaced, or another domain)',
            );
          callback(ours ? null : smtpError(550, '5.1.1 No such mailbox here'));
        },
        (error: unknown) => {
          app.log.warn({ err: error }, 'inbound mail: a recipient could not be checked');
          callback(smtpError(451, '4.3.0 Try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let length = 0;
      stream.on('data', (chunk: Buffer) => {
        // Past the limit nothing more is kept: smtp-server answers 552 itself (sizeExceeded).
        if (length + chunk.length <= maxBytes) chunks.push(chunk);
        length += chunk.length;
      });
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        if (stream.sizeExceeded || length > maxBytes) {
          app.log.info(
            { inbound: { bytes: length, limit: maxBytes } },
            'inbound mail refused: larger than INBOUND_MAX_BYTES',
          );
          callback(smtpError(552, `5.3.4 Message larger than ${maxBytes} bytes`));
          return;
        }
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        const mailFrom = session.envelope.mailFrom;
        receiver
          .receiveMessage({
            raw: Buffer.concat(chunks, length),
            envelope: { from: mailFrom ? mailFrom.address : null, to: recipients },
            remoteAddress: session.remoteAddress,
            helo: session.hostNameAppearsAs,
          })
          .then(
            (outcomes) => {
              const [only] = outcomes;
              if (outcomes.length === 1 && only?.outcome === 'refused') {
                callback(smtpError(550, `5.7.1 ${oneLine(only.reason ?? 'Refused')}`));
                return;
              }
              callback(null, 'OK: received');
            },
            (error: unknown) => {
              app.log.error({ err: error }, 'inbound mail could not be stored');
              callback(smtpError(451, '4.3.0 Could not store the message, try again later'));
            },
          );
      });
    },
  });
  server.on('error', (error) => app.log.warn({ err: error }, 'inbound SMTP connection failed'));

  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.server.once('error', failed);
    server.listen(settings.smtpPort ?? 0, app.config.host, () => {
      server.server.off('error', failed);
      resolve();
    });
  });
  state.port = (server.server.address() as AddressInfo).port;
  app.log.info(`inbound SMTP listening on port ${state.port}`);
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
