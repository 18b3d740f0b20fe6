import { OIDC_LOGIN_TTL_MS } from '../../shared/oidc';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { hashToken } from '../http/session';

/** A sign-in under way, as its callback takes it. */
export interface LoginRow {
  state: string;
  code_verifier: string;
  nonce: string;
  return_to: string;
}

/** The user of (issuer, sub), created with `name` in one transaction with the identity: never half made. */
export async function findOrCreateOidcUser(
  db: Executor & { transaction: <T>(work: (tx: Executor) => Promise<T>) => Promise<T> },
  issuer: string,
  subject: string,
  name: string,
  email: string | null,
): Promise<UserRow> {
  const existing = async () => {
    const [user] = await rows<UserRow>(
      db,
      sql`UPDATE oidc_identities i SET last_used_at = now(), email = ${email}
          FROM users u WHERE i.issuer = ${issuer} AND i.subject = ${subject} AND u.id = i.user_id
          RETURNING u.id, u.name, u.phone, u.created_at, u.updated_at`,
    );
    return user;
  };
  const known = await existing();
  if (known) return known;
  try {
    return await db.transaction(async (tx) => {
      const [user] = await rows<UserRow>(
        tx,
        sql`INSERT INTO users (name, phone) VALUES (${name}, NULL)
            RETURNING id, name, phone, created_at, updated_at`,
      );
      await tx.execute(
        sql`INSERT INTO oidc_identities (user_id, issuer, subject, email)
            VALUES (${user!.id}, ${issuer}, ${subject}, ${email})`,
      );
      return user!;
    });
  } catch (error) {
    // The same person finishing two sign-ins at once: the other one created them.
    const raced = await existing();
    if (raced) return raced;
    throw error;
  }
}

/** Keeps a sign-in under way, bound to the browser by `browser`'s hash, until `OIDC_LOGIN_TTL_MS` passes. */
export async function rememberLogin(
  db: Executor,
  login: { state: string; browser: string; verifier: string; nonce: string; returnTo: string },
): Promise<void> {
  const { state, browser, verifier, nonce, returnTo } = login;
  await db.execute(
    sql`INSERT INTO oidc_logins (state, browser_hash, code_verifier, nonce, return_to, expires_at)
            VALUES (${state}, ${hashToken(browser)}, ${verifier}, ${nonce}, ${returnTo},
                    ${new Date(Date.now() + OIDC_LOGIN_TTL_MS)})`,
  );
}

/** Takes the live sign-in of `state` started in this browser (single use); undefined when there is none. */
export async function takeLogin(db: Executor, state: string, browser: string): Promise<LoginRow | undefined> {
  const [login] = await rows<LoginRow>(
    db,
    sql`DELETE FROM oidc_logins
                  WHERE state = ${state} AND browser_hash = ${hashToken(browser)} AND expires_at > now()
                  RETURNING state, code_verifier, nonce, return_to`,
  );
  return login;
}
