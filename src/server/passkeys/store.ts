import type { Passkey } from '../../shared/passkeys';
import { PASSKEY_CHALLENGE_MS, PASSKEYS_PER_USER } from '../../shared/passkeys';
import type { UserRow } from '../auth/users';
import { type Executor, rows, sql } from '../db/client';
import { iso, isoOrNull } from '../http/serialize';

export type Purpose = 'register' | 'login';

export interface PasskeyRow {
  id: number;
  user_id: number;
  credential_id: string;
  public_key: Buffer | Uint8Array;
  counter: number | string;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

/** The API's passkey (never its key). */
export const passkeyJson = (
  row: Pick<PasskeyRow, 'id' | 'name' | 'created_at' | 'last_used_at'>,
): Passkey => ({
  id: row.id,
  name: row.name,
  created_at: iso(row.created_at),
  last_used_at: isoOrNull(row.last_used_at),
});

/** Stores a challenge handed out for `purpose`; it may be answered once within 5 minutes. */
export async function rememberChallenge(
  db: Executor,
  challenge: string,
  purpose: Purpose,
  userId: number | null,
) {
  await db.execute(
    sql`INSERT INTO webauthn_challenges (challenge, user_id, purpose, expires_at)
        VALUES (${challenge}, ${userId}, ${purpose}, ${new Date(Date.now() + PASSKEY_CHALLENGE_MS)})`,
  );
}

/** Takes a live challenge (it is gone after this, answered or not); false when there is none. */
export async function takeChallenge(
  db: Executor,
  challenge: string | null,
  purpose: Purpose,
  userId: number | null,
): Promise<boolean> {
  if (challenge === null) return false;
  const taken = await rows<{ challenge: string }>(
    db,
    sql`DELETE FROM webauthn_challenges
        WHERE challenge = ${challenge} AND purpose = ${purpose}
          AND user_id IS NOT DISTINCT FROM ${userId} AND expires_at > now()
        RETURNING challenge`,
  );
  return taken.length === 1;
}

/** The user's passkeys' credential ids and transports, for the browser to skip when adding one. */
export function passkeyCredentials(db: Executor, user: { id: number }) {
  return rows<{ credential_id: string; transports: string[] }>(
    db,
    sql`SELECT credential_id, transports FROM passkeys WHERE user_id = ${user.id}`,
  );
}

/** Adds a verified credential as the user's passkey; undefined when it is known already or the user has too many. */
export async function insertPasskey(
  db: Executor,
  user: { id: number },
  credential: { id: string; publicKey: Uint8Array; counter: number },
  transports: readonly string[],
  name: string,
): Promise<PasskeyRow | undefined> {
  const added = await rows<PasskeyRow>(
    db,
    sql`INSERT INTO passkeys (user_id, credential_id, public_key, counter, transports, name)
          SELECT ${user.id}, ${credential.id}, ${Buffer.from(credential.publicKey)}, ${credential.counter},
                 string_to_array(${transports.join(',')}, ','), ${name}
          WHERE (SELECT count(*) FROM passkeys WHERE user_id = ${user.id}) < ${PASSKEYS_PER_USER}
          ON CONFLICT (credential_id) DO NOTHING
          RETURNING id, name, created_at, last_used_at`,
  );
  return added[0];
}

/** The user's passkeys, oldest first. */
export function listPasskeys(db: Executor, user: { id: number }): Promise<PasskeyRow[]> {
  return rows<PasskeyRow>(
    db,
    sql`SELECT id, name, created_at, last_used_at FROM passkeys WHERE user_id = ${user.id} ORDER BY created_at, id`,
  );
}

/** Renames the user's passkey `id`; undefined when it is not theirs. */
export async function renamePasskey(
  db: Executor,
  user: { id: number },
  id: number,
  name: string,
): Promise<PasskeyRow | undefined> {
  const [renamed] = await rows<PasskeyRow>(
    db,
    sql`UPDATE passkeys SET name = ${name} WHERE id = ${id} AND user_id = ${user.id}
            RETURNING id, name, created_at, last_used_at`,
  );
  return renamed;
}

/** Removes the user's passkey `id`; false when it is not theirs. */
export async function deletePasskey(db: Executor, user: { id: number }, id: number): Promise<boolean> {
  const gone = await rows<{ id: number }>(
    db,
    sql`DELETE FROM passkeys WHERE id = ${id} AND user_id = ${user.id} RETURNING id`,
  );
  return gone.length > 0;
}

/** The passkey with the credential id the browser answered with, whoever holds it. */
export async function passkeyByCredential(
  db: Executor,
  input: { response: { id: string } },
): Promise<PasskeyRow | undefined> {
  const [passkey] = await rows<PasskeyRow>(
    db,
    sql`SELECT * FROM passkeys WHERE credential_id = ${input.response.id}`,
  );
  return passkey;
}

/** Moves the passkey's counter to `newCounter` and marks it used; false on a step back (a clone). */
export async function advanceCounter(
  db: Executor,
  passkey: Pick<PasskeyRow, 'id'>,
  newCounter: number,
): Promise<boolean> {
  const moved = await rows<{ user_id: number }>(
    db,
    sql`UPDATE passkeys SET counter = ${newCounter}, last_used_at = now()
          WHERE id = ${passkey.id} AND (counter < ${newCounter} OR (counter = 0 AND ${newCounter} = 0))
          RETURNING user_id`,
  );
  return moved.length > 0;
}

/** The passkey's holder. */
export async function passkeyUser(
  db: Executor,
  passkey: Pick<PasskeyRow, 'user_id'>,
): Promise<UserRow | undefined> {
  const [user] = await rows<UserRow>(db, sql`SELECT * FROM users WHERE id = ${passkey.user_id}`);
  return user;
}
