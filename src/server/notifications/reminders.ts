import type { FastifyBaseLogger } from 'fastify';
import type { ItemType } from '../../shared/item';
import { reminderRecipients } from '../../shared/notifications';
import { type Executor, rows, sql } from '../db/client';
import { seersAmong } from '../items/queries';
import { outboxSignal } from './outboxSignal';
import { addNotification } from './record';

/** A reminder found this much after its time (the server was down) is still sent; older ones are not. */
export const REMINDER_LATE_LIMIT_MS = 24 * 60 * 60 * 1000;
const BATCH = 100;

type Transactional = Executor & { transaction<T>(run: (tx: Executor) => Promise<T>): Promise<T> };

interface DueRow {
  id: number;
  type: ItemType;
  title: string;
  user_id: number;
  assigned_to: number | null;
  remind_at: Date | string;
}

/**
 * Sends every reminder due at `now` that has not fired: a `due` entry for the item's creator and
 * assignee. The database is the queue: due items are claimed with `FOR UPDATE SKIP LOCKED`, and the
 * (item, remind_at) key of `reminder_claims` lets only one claim win, so any number of instances
 * racing send each reminder once. A changed `remind_at` is a new key (re-armed); completed and deleted
 * items are skipped (and their claim is written as cancelled when that happens). Answers the users
 * who got an entry.
 */
export async function sendDueReminders(db: Transactional, now: Date): Promise<number[]> {
  const notified: number[] = [];
  for (;;) {
    let used: Executor | null = null;
    const batch = await db.transaction(async (tx) => {
      used = tx;
      const due = await rows<DueRow>(
        tx,
        sql`SELECT i.id, i.type, i.title, i.user_id, i.assigned_to, i.remind_at FROM items i
            WHERE i.remind_at IS NOT NULL AND i.deleted_at IS NULL
              AND i.remind_at <= ${now.toISOString()}
              AND i.remind_at > ${new Date(now.getTime() - REMINDER_LATE_LIMIT_MS).toISOString()}
              AND i.status <> 'completed'
              AND NOT EXISTS (SELECT 1 FROM reminder_claims c WHERE c.item_id = i.id AND c.remind_at = i.remind_at)
            ORDER BY i.remind_at, i.id LIMIT ${BATCH}
            FOR UPDATE OF i SKIP LOCKED`,
      );
      for (const item of due) {
        const at = new Date(item.remind_at).toISOString();
        const won = await rows<{ item_id: number }>(
          tx,
          sql`INSERT INTO reminder_claims (item_id, remind_at, outcome) VALUES (${item.id}, ${at}, 'sent')
              ON CONFLICT DO NOTHING RETURNING item_id`,
        );
        if (won.length === 0) continue;
        // M10: only whoever still sees the item (a creator or assignee removed from its campaign does not).
        const recipients = reminderRecipients(item.user_id, item.assigned_to);
        const seeing = new Set(await seersAmong(tx, item.id, recipients));
        for (const userId of recipients.filter((id) => seeing.has(id))) {
          await addNotification(tx, {
            userId,
            kind: 'due',
            actor: null,
            item: { id: item.id, type: item.type, title: item.title },
          });
          notified.push(userId);
        }
      }
      return due.length;
    });
    // Committed: the outbox may push what it wrote (the tick's onSent pokes it).
    outboxSignal.committed(used);
    if (batch < BATCH) return notified;
  }
}

/**
 * Looks for due reminders every `tickMs` (at once on start, so reminders due while the server was
 * down go out late, once), on an unref'd timer. `onSent` hears who got entries (maybe nobody) after each tick.
 */
export function startReminders(options: {
  db: Transactional;
  log: FastifyBaseLogger;
  clock: () => Date;
  tickMs: number;
  onSent: (userIds: number[]) => void;
}): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const run = () => {
    timer = null;
    running = sendDueReminders(options.db, options.clock())
      .then((userIds) => options.onSent([...new Set(userIds)]))
      .catch((error) => {
        if (!stopped) options.log.warn({ err: error }, 'sending due reminders failed');
      })
      .finally(() => {
        running = null;
        if (!stopped) {
          timer = setTimeout(run, options.tickMs);
          timer.unref();
        }
      });
  };
  if (options.tickMs > 0) {
    timer = setTimeout(run, 0);
    timer.unref();
  }
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
