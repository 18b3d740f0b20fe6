import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  nextLogCheck,
  nextRetryDelay,
  outcomeOf,
  payloadBody,
  RETRY_SCHEDULE_MS,
  subscribes,
  WEBHOOK_EVENTS,
  WEBHOOK_PAYLOAD_MAX_BYTES,
  webhookCreateSchema,
  webhookPatchSchema,
} from './webhooks';

describe('the retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, then gives up', () => {
    const minutes = [1 / 12, 5, 30, 120, 300, 600, 840, 1200, 1440];
    expect(RETRY_SCHEDULE_MS.map((ms) => ms / 60_000)).toEqual(minutes);
    for (let attempt = 1; attempt <= 9; attempt++)
      expect(nextRetryDelay(attempt)).toBe(RETRY_SCHEDULE_MS[attempt - 1]);
    expect(nextRetryDelay(10)).toBeNull();
  });

  it('never answers a negative wait, and ends for every attempt past the schedule', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 1000 }), (attempts) => {
        const delay = nextRetryDelay(attempts);
        if (attempts > RETRY_SCHEDULE_MS.length) expect(delay).toBeNull();
        else expect(delay).toBeGreaterThan(0);
      }),
    );
  });

  it('follows an injected schedule (tests)', () => {
    expect(nextRetryDelay(1, [10, 20])).toBe(10);
    expect(nextRetryDelay(3, [10, 20])).toBeNull();
  });
});

describe('what an answer means', () => {
  it('2xx is delivered, 410 disables, everything else (3xx included) fails', () => {
    expect(outcomeOf(200)).toBe('delivered');
    expect(outcomeOf(204)).toBe('delivered');
    expect(outcomeOf(410)).toBe('gone');
    for (const status of [0, 301, 302, 400, 404, 429, 500, 503]) expect(outcomeOf(status)).toBe('failed');
  });
});

describe('subscriptions', () => {
  it('* hears every event, a list only its own, and a test reaches every webhook', () => {
    for (const event of WEBHOOK_EVENTS) expect(subscribes(['*'], event)).toBe(true);
    expect(subscribes(['item.created'], 'item.created')).toBe(true);
    expect(subscribes(['item.created'], 'item.deleted')).toBe(false);
    expect(subscribes(['comment.created'], 'webhook.test')).toBe(true);
  });
});

describe('the payload', () => {
  const base = {
    type: 'item.created' as const,
    timestamp: '2026-11-27T20:00:00.000Z',
    actor: { id: 1, name: 'Alex' },
  };

  it('is the event as it is when it fits', () => {
    const payload = { ...base, data: { item: { id: 3, title: 'Buy milk' } } };
    expect(JSON.parse(payloadBody(payload))).toEqual(payload);
  });

  it('stays under 20 KB whatever the data holds', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60_000, unit: 'grapheme' }),
        fc.string({ maxLength: 30_000 }),
        fc.integer({ min: 0, max: 200 }),
        (description, title, extra) => {
          const body = payloadBody({
            ...base,
            actor: { id: 1, name: title },
            data: {
              item: {
                id: 7,
                title,
                description,
                labels: Array.from({ length: extra }, () => title.slice(0, 50)),
              },
            },
          });
          expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(WEBHOOK_PAYLOAD_MAX_BYTES);
          const parsed = JSON.parse(body) as { type: string; data: { item: { id: number } } };
          expect(parsed.type).toBe('item.created');
          expect(parsed.data.item.id).toBe(7);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('shortens a long description and says so', () => {
    const parsed = JSON.parse(
      payloadBody({ ...base, data: { item: { id: 1, description: 'x'.repeat(50_000) } } }),
    ) as { data: { item: { description: string; truncated: boolean } } };
    expect(parsed.data.item.truncated).toBe(true);
    expect(parsed.data.item.description.length).toBeLessThan(50_000);
  });
});

describe('the request bodies', () => {
  it('a webhook needs a URL and at least one known event', () => {
    expect(webhookCreateSchema.safeParse({ url: 'https://example.com/h', events: ['*'] }).success).toBe(true);
    expect(webhookCreateSchema.safeParse({ url: 'https://example.com/h', events: [] }).success).toBe(false);
    expect(
      webhookCreateSchema.safeParse({ url: 'https://example.com/h', events: ['item.eaten'] }).success,
    ).toBe(false);
    expect(webhookCreateSchema.safeParse({ events: ['*'] }).success).toBe(false);
    expect(
      webhookCreateSchema.safeParse({ url: 'https://example.com/h', events: ['*'], secret: 'mine' }).success,
    ).toBe(false);
  });

  it('repeated events are kept once', () => {
    const parsed = webhookCreateSchema.parse({
      url: 'https://example.com/h',
      events: ['item.created', 'item.created'],
    });
    expect(parsed.events).toEqual(['item.created']);
  });

  it('a patch may change the URL, the events and whether it is on, nothing else', () => {
    expect(webhookPatchSchema.safeParse({ enabled: false }).success).toBe(true);
    expect(webhookPatchSchema.safeParse({ campaign_id: 3 }).success).toBe(false);
    expect(webhookPatchSchema.safeParse({ enabled: 'yes' }).success).toBe(false);
  });

  it('never throws on any input', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        webhookCreateSchema.safeParse(input);
        webhookPatchSchema.safeParse(input);
      }),
    );
  });
});

describe('when an open delivery log looks again', () => {
  const now = Date.parse('2026-11-29T10:00:00Z');
  const at = (ms: number) => new Date(now + ms).toISOString();
  it('never while nothing is pending: a change or the tab showing refreshes it, no timer', () => {
    expect(nextLogCheck([], now)).toBe(false);
    expect(
      nextLogCheck(
        [
          { status: 'delivered', next_attempt_at: null },
          { status: 'failed', next_attempt_at: null },
        ],
        now,
      ),
    ).toBe(false);
  });
  it('a second after the soonest pending try, at least 2 s and at most 5 min away', () => {
    expect(nextLogCheck([{ status: 'pending', next_attempt_at: at(0) }], now)).toBe(2_000);
    expect(nextLogCheck([{ status: 'pending', next_attempt_at: at(-60_000) }], now)).toBe(2_000);
    expect(
      nextLogCheck(
        [
          { status: 'pending', next_attempt_at: at(30_000) },
          { status: 'pending', next_attempt_at: at(10_000) },
        ],
        now,
      ),
    ).toBe(11_000);
    expect(nextLogCheck([{ status: 'pending', next_attempt_at: at(3_600_000) }], now)).toBe(300_000);
  });
});
