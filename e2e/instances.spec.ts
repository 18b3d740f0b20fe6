import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { type OwnServer, startOwnServer, throwawayPostgres } from './lib/servers';
import { freshPhone, Outpost, uniqueTitle } from './pages/Outpost';

const PENDING = 'Pending sync';

test.beforeEach(() => {
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
  test.skip(
    !process.env.TEST_DATABASE_URL,
    'TEST_DATABASE_URL is not set: two server instances need a shared PostgreSQL (CI sets it)',
  );
});

/** A signed-in browser on one instance, whose change stream is open before the caller goes on. */
async function deviceOn(context: BrowserContext, phone: string): Promise<Outpost> {
  const page: Page = await context.newPage();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events' && r.ok());
  await app.signIn(phone, 'Two Instances');
  await app.expectHomeAfterSignIn();
  await stream;
  return app;
}

test('a change written on instance A reaches a browser on instance B within 3 s, without a reload', async ({
  browser,
}, testInfo) => {
  const database = await throwawayPostgres(process.env.TEST_DATABASE_URL ?? '');
  const servers: OwnServer[] = [];
  const contexts: BrowserContext[] = [];
  try {
    // One after the other: the first runs the migrations on the empty database.
    servers.push(await startOwnServer({ databaseUrl: database.url }));
    servers.push(await startOwnServer({ databaseUrl: database.url }));
    const [serverA, serverB] = servers as [OwnServer, OwnServer];
    const { viewport } = testInfo.project.use;
    for (const server of servers) contexts.push(await browser.newContext({ viewport, baseURL: server.url }));
    const [contextA, contextB] = contexts as [BrowserContext, BrowserContext];
    expect(serverA.port).not.toBe(serverB.port);

    const phone = freshPhone();
    const a = await deviceOn(contextA, phone);
    const b = await deviceOn(contextB, phone);
    const title = uniqueTitle('Across instances');

    await test.step('A adds a todo; B shows it within 3 s', async () => {
      let reloads = 0;
      b.page.on('load', () => reloads++);
      await a.quickAdd('todo', title);
      await expect(a.row(title)).not.toContainText(PENDING, { timeout: 10_000 });
      // The server has it now; B hears of it through A's NOTIFY, B's LISTEN and B's event stream.
      await expect(b.row(title)).toBeVisible({ timeout: 3_000 });
      expect(reloads).toBe(0);
    });

    await test.step('and back: B adds a todo; A shows it within 3 s', async () => {
      const back = uniqueTitle('Back across');
      await b.quickAdd('todo', back);
      await expect(a.row(back)).toBeVisible({ timeout: 3_000 });
      await expect(a.row(back)).not.toContainText(PENDING);
    });
  } finally {
    for (const context of contexts) await context.close();
    for (const server of servers) await server.stop();
    await database.drop();
  }
});
