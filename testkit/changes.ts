import type { FastifyInstance } from 'fastify';
import { signedIn } from './testClient';

/** Per app, how many times the change bus told each user (both hearings, see changesDelivered). */
const heardBy = new WeakMap<FastifyInstance, Map<number, number>>();

function hearingsOf(app: FastifyInstance): Map<number, number> {
  let heard = heardBy.get(app);
  if (!heard) {
    const counts = new Map<number, number>();
    app.changes.onChange((ids) => {
      for (const id of ids ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
    });
    heardBy.set(app, counts);
    heard = counts;
  }
  return heard;
}

/**
 * Waits until every change announced so far has been delivered to the app's streams. PostgreSQL's
 * deliveries come through NOTIFY after the response, and wait for the cluster's pull horizon (E6),
 * which another test file's open transaction may hold back for seconds. Both buses deliver in order,
 * and a user's own write is heard twice (at commit, and on delivery): once a bystander's second
 * hearing is in, so is everything announced before it.
 */
export async function changesDelivered(app: FastifyInstance, timeoutMs = 15_000): Promise<void> {
  const heard = hearingsOf(app);
  const bystander = await signedIn(app, 'Bystander');
  await bystander.create({ title: 'Marker', type: 'campaign' });
  const id = bystander.user!.id;
  const deadline = Date.now() + timeoutMs;
  while ((heard.get(id) ?? 0) < 2) {
    if (Date.now() > deadline) throw new Error(`the change bus delivered nothing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
