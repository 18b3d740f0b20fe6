import { randomBytes } from 'node:crypto';
import {
  type ApiToken,
  type ApiTokenCreated,
  MAX_LIVE_TOKENS,
  TOKEN_PREFIX,
  TOO_MANY_TOKENS_MESSAGE,
  type TokenCreate,
  type TokenScope,
} from '../../shared/tokens';
import { type Database, type Executor, rows, sql } from '../db/client';
import { notFound, unprocessable } from '../http/errors';
import { iso, isoOrNull } from '../http/serialize';
import { hashToken } from '../http/session';

interface TokenRow {
  id: number;
  name: string;
  scopes: TokenScope[];
  created_at: Date | string;
  expires_at: Date | string;
  last_used_at: Date | string | null;
}

const tokenJson = (row: TokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  created_at: iso(row.created_at),
  expires_at: iso(row.expires_at),
  last_used_at: isoOrNull(row.last_used_at),
});

/** A new secret: `opk_` and 32 random bytes in base64url (256 bits, so a plain SHA-256 keeps it). */
export const newTokenSecret = () => `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/**
 * POST /api/tokens: a new token, its secret in this answer only. The owner's user row is locked for
 * the count and the insert, so parallel creates queue there and the user never ends above
 * MAX_LIVE_TOKENS live tokens (tokens.test.ts proves it with parallel requests on PostgreSQL).
 */
export async function createToken(
  database: Database,
  userId: number,
  input: TokenCreate,
): Promise<ApiTokenCreated> {
  const secret = newTokenSecret();
  const row = await database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
    const [live] = await rows<{ n: number }>(
      tx,
      sql`SELECT count(*)::int AS n FROM personal_access_tokens
          WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > now()`,
    );
    if ((live?.n ?? 0) >= MAX_LIVE_TOKENS) throw unprocessable({ tokens: [TOO_MANY_TOKENS_MESSAGE] });
    const [created] = await rows<TokenRow>(
      tx,
      sql`INSERT INTO personal_access_tokens (user_id, name, scopes, token_hash, expires_at)
          VALUES (${userId}, ${input.name}, string_to_array(${input.scopes.join(',')}, ','), ${hashToken(secret)},
                  now() + make_interval(days => ${input.expires_in_days}))
          RETURNING id, name, scopes, created_at, expires_at, last_used_at`,
    );
    return created!;
  });
  return { ...tokenJson(row), token: secret };
}

/** GET /api/tokens: the person's tokens that are not revoked (expired ones too), newest first. */
export async function listTokens(db: Executor, userId: number): Promise<ApiToken[]> {
  const found = await rows<TokenRow>(
    db,
    sql`SELECT id, name, scopes, created_at, expires_at, last_used_at FROM personal_access_tokens
        WHERE user_id = ${userId} AND revoked_at IS NULL ORDER BY created_at DESC, id DESC`,
  );
  return found.map(tokenJson);
}

/**
 * DELETE /api/tokens/{id}: revokes the person's token and answers its hash (to drop it from the
 * session cache); another person's token, or one already revoked, is a 404.
 */
export async function revokeToken(db: Executor, userId: number, tokenId: number): Promise<string> {
  const [row] = await rows<{ token_hash: string }>(
    db,
    sql`UPDATE personal_access_tokens SET revoked_at = now()
        WHERE id = ${tokenId} AND user_id = ${userId} AND revoked_at IS NULL RETURNING token_hash`,
  );
  if (!row) throw notFound('Token');
  return row.token_hash;
}
