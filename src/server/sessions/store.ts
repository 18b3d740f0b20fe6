import type { SignInMethod } from '../../shared/devices';
import { type Executor, rows, sql } from '../db/client';

/** A signed-in device as the sessions table keeps it. */
export interface DeviceRow {
  id: string;
  created_at: Date;
  last_seen_at: Date;
  user_agent: string | null;
  via: SignInMethod;
  current: boolean;
}

/** Ends every session of `userId` (POST /api/logout {everywhere: true}); answers their keys. */
export async function endAllSessions(db: Executor, userId: number): Promise<string[]> {
  const ended = await rows<{ id: string }>(
    db,
    sql`DELETE FROM sessions WHERE user_id = ${userId} RETURNING id`,
  );
  return ended.map((r) => r.id);
}

/**
 * The devices `user` is signed in on (live and used within `idleMinutes`), the
 * session `current` first, then by last use.
 */
export async function deviceSessions(
  db: Executor,
  user: { id: number },
  current: string,
  idleMinutes: number,
): Promise<DeviceRow[]> {
  const found = await rows<DeviceRow>(
    db,
    sql`SELECT public_id AS id, created_at, last_seen_at, user_agent, via, id = ${current} AS current
          FROM sessions
          WHERE user_id = ${user.id} AND expires_at > now()
            AND last_seen_at > now() - make_interval(mins => ${idleMinutes})
          ORDER BY id = ${current} DESC, last_seen_at DESC
          LIMIT 200`,
  );
  return found;
}

/** Ends `user`'s session whose public id is `id`; answers the keys of the sessions ended (none or one). */
export async function endDeviceSession(
  db: Executor,
  user: { id: number },
  id: string,
): Promise<{ id: string }[]> {
  return rows<{ id: string }>(
    db,
    sql`DELETE FROM sessions WHERE public_id = ${id.toLowerCase()} AND user_id = ${user.id} RETURNING id`,
  );
}
