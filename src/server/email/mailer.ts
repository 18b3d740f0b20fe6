import nodemailer, { type Transporter } from 'nodemailer';
import type { EmailConfig } from '../env';
import { headerText, type RenderedMail } from './render';

/** One mail to send: the rendered words, the recipient and any extra headers. */
export interface OutgoingMail extends RenderedMail {
  to: string;
  headers?: Record<string, string>;
  replyTo?: string;
}

/** What the SMTP server made of a send: taken, refused for now (try again), or refused for good. */
export type SendOutcome =
  | { ok: true; response: string }
  | { ok: false; permanent: boolean; error: string; code: number | null };

/** The SMTP error's own words when the server answered, else what went wrong on the way there. */
function answerOf(error: unknown): { error: string; code: number | null } {
  const e = error as { response?: unknown; responseCode?: unknown; message?: unknown; code?: unknown };
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  if (typeof e.response === 'string' && e.response.trim())
    return { error: e.response.trim().slice(0, 1000), code };
  const message = typeof e.message === 'string' ? e.message : String(error);
  return { error: message.slice(0, 1000), code };
}

/**
 * The SMTP connection pool of SMTP_URL (ARCHITECTURE §4 'Email'). Answers every send with the
 * server's words; a 5xx answer other than to authentication is permanent, anything else is retried
 * (a wrong password is a setting to fix, not a reason to drop the mail).
 */
export class Mailer {
  private readonly transport: Transporter;

  constructor(
    private readonly config: Pick<EmailConfig, 'smtpUrl' | 'from' | 'allowInsecure'> & { smtpUrl: string },
  ) {
    this.transport = nodemailer.createTransport({
      url: config.smtpUrl,
      pool: true,
      maxConnections: 3,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      ...(config.allowInsecure ? { tls: { rejectUnauthorized: false } } : {}),
    } as Parameters<typeof nodemailer.createTransport>[0]);
  }

  /** Sends one mail and says what the server answered. */
  async send(mail: OutgoingMail): Promise<SendOutcome> {
    try {
      const info = (await this.transport.sendMail({
        from: this.config.from,
        to: mail.to,
        subject: headerText(mail.subject, 250),
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
      })) as { response?: string };
      return { ok: true, response: info.response ?? '' };
    } catch (error) {
      const answer = answerOf(error);
      const authFailed = (error as { code?: unknown }).code === 'EAUTH';
      return { ok: false, permanent: answer.code !== null && answer.code >= 500 && !authFailed, ...answer };
    }
  }

  /**
   * Connects and signs in to the SMTP server without sending (readiness, health/checks.ts); rejects
   * with the host and the error's code, never the URL's password.
   */
  async verify(): Promise<void> {
    try {
      await this.transport.verify();
    } catch (error) {
      const url = new URL(this.config.smtpUrl);
      const code = (error as { code?: unknown }).code;
      const reason = typeof code === 'string' ? code : 'no answer';
      throw new Error(
        `the mail server at ${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)} does not take mail (${reason}${code === 'EAUTH' ? ': the user or password is wrong' : ''}).`,
      );
    }
  }

  close(): void {
    this.transport.close();
  }
}
