/**
 * Issue 51 'Budgets': `npm run bench -- webhook-write [--pairs N]` (default 20 pairs). A title edit
 * (PATCH /api/items/:id) of a todo whose owner has three webhooks subscribed to every event, against
 * the same edit by another person with none, alternating A B A B after two unrecorded pairs. The
 * webhooks point at a local receiver (loopback allowed, as the tests do); after each pair the bench
 * waits for the three deliveries, so the sender never runs beside a timed write: only the write's
 * own latency is measured, of which the outbox rows are the only webhook cost. Figure: the median of
 * the per-pair ratios with their spread; budget ≤ 1.1×. In-process (app.inject) on PGlite.
 */
import type { WebhookCreated } from '../src/shared/webhooks';
import { openTestDatabase } from '../testkit/server';
import { startWebhookReceiver } from '../testkit/webhookReceiver';
import { hookApp, injectJson } from './lib/hookApp';
import { injectSignIn } from './lib/injectSession';
import { numberArg } from './lib/pageApi';
import { ms, type Pairs, ratioText } from './lib/pairs';
import { check, heading, info } from './lib/report';
import { median } from './lib/stats';

const HOOKS = 3;

export async function run(args: string[] = []): Promise<void> {
  const pairs = Math.max(2, numberArg(args, '--pairs', 20));
  heading(
    `webhook-write: a title edit with ${HOOKS} webhooks subscribed vs without (PGlite, ${pairs} pairs)`,
  );
  const database = await openTestDatabase('pglite');
  const app = await hookApp(database);
  const receiver = await startWebhookReceiver();
  try {
    const hooked = await injectSignIn(app, '+15555550521', 'With Hooks');
    const plain = await injectSignIn(app, '+15555550522', 'Without Hooks');
    const mine = await injectJson<{ id: number }>(app, hooked, 'POST', '/api/items', {
      title: 'A',
      type: 'todo',
    });
    const theirs = await injectJson<{ id: number }>(app, plain, 'POST', '/api/items', {
      title: 'B',
      type: 'todo',
    });
    const secrets: string[] = [];
    for (let n = 0; n < HOOKS; n++) {
      const hook = await injectJson<WebhookCreated>(app, hooked, 'POST', '/api/webhooks', {
        url: `${receiver.url}/hook/${n}`,
        events: ['*'],
      });
      secrets.push(hook.secret);
    }
    let expected = 0;
    const edit = async (who: typeof hooked, id: number, title: string) => {
      const started = performance.now();
      await injectJson(app, who, 'PATCH', `/api/items/${id}`, { title });
      return performance.now() - started;
    };
    const p: Pairs = { ref: [], app: [], ratios: [] };
    for (let round = -2; round < pairs; round++) {
      const without = await edit(plain, theirs.id, `B ${round}`);
      const withHooks = await edit(hooked, mine.id, `A ${round}`);
      // The deliveries of this write arrive before the next pair starts (or the bench says so).
      expected += HOOKS;
      const deadline = Date.now() + 10_000;
      while (receiver.received.length < expected && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 5));
      if (receiver.received.length < expected)
        throw new Error(`only ${receiver.received.length} of ${expected} deliveries arrived within 10 s`);
      if (round < 0) continue;
      p.ref.push(without);
      p.app.push(withHooks);
      p.ratios.push(withHooks / without);
    }
    const verified = receiver.received.filter((r) =>
      secrets.some((secret) => {
        try {
          receiver.verify(r, secret);
          return true;
        } catch {
          return false;
        }
      }),
    ).length;
    info('deliveries', 'verified / received', `${verified} / ${receiver.received.length}`);
    info('PATCH /api/items/:id', 'median without / with', `${ms(median(p.ref))} / ${ms(median(p.app))}`);
    check({
      subject: `a write with ${HOOKS} webhooks vs without`,
      metric: 'ratio (spread)',
      value: ratioText(p),
      budget: '≤ 1.1×',
      ok: median(p.ratios) <= 1.1,
    });
  } finally {
    await app.close();
    await receiver.close();
    await database.close();
  }
}
