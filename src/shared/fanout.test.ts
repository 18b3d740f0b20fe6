import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOTIFY_PAYLOAD_MAX_BYTES, notifyPayloads, parseNotifyPayload, TopicIndex } from './fanout';

const bytes = (text: string) => new TextEncoder().encode(text).length;
const sevenDigitIds = (n: number) => Array.from({ length: n }, (_, i) => 1_000_000 + i);

describe('E5: NOTIFY payloads capped by bytes', () => {
  it('E5: 1,000 seven-digit user ids (8,001 bytes as one array) go out as two payloads under the limit', () => {
    const ids = sevenDigitIds(1000);
    expect(bytes(JSON.stringify(ids))).toBe(8001);
    const payloads = notifyPayloads({ users: ids, campaigns: [] });
    expect(payloads).toHaveLength(2);
    for (const payload of payloads) expect(bytes(payload)).toBeLessThanOrEqual(NOTIFY_PAYLOAD_MAX_BYTES);
    expect(payloads.flatMap((p) => parseNotifyPayload(p)!.users)).toEqual(ids);
  });

  it('E5: at the exact boundary: a payload of 7,999 bytes stays one, one byte more splits', () => {
    // 999 seven-digit ids: 2 + 999 × 7 + 998 = 7,993 bytes; one id of 6 digits more makes 8,000.
    const ids = sevenDigitIds(999);
    expect(notifyPayloads({ users: [...ids, 12345], campaigns: [] })).toEqual([
      JSON.stringify([...ids, 12345]),
    ]);
    expect(bytes(JSON.stringify([...ids, 12345]))).toBe(7999);
    const over = notifyPayloads({ users: [...ids, 123456], campaigns: [] });
    expect(bytes(JSON.stringify([...ids, 123456]))).toBe(8000);
    expect(over).toEqual([JSON.stringify(ids), '[123456]']);
  });

  it('E5: PostgreSQL refuses 8,000 bytes, so the cap is 7,999', () => {
    expect(NOTIFY_PAYLOAD_MAX_BYTES).toBe(7999);
  });

  it('E5: campaigns travel as {"c":[…]}, split the same way, and nothing is sent for nothing', () => {
    expect(notifyPayloads({ users: [], campaigns: [] })).toEqual([]);
    expect(notifyPayloads({ users: [3, 3, 4], campaigns: [9] })).toEqual(['[3,4]', '{"c":[9]}']);
    const payloads = notifyPayloads({ users: [], campaigns: sevenDigitIds(2000) }, 100);
    for (const payload of payloads) expect(bytes(payload)).toBeLessThanOrEqual(100);
    expect(payloads.flatMap((p) => parseNotifyPayload(p)!.campaigns)).toEqual(sevenDigitIds(2000));
  });

  it('E5: a payload we did not write is ignored', () => {
    expect(parseNotifyPayload('not json')).toBeNull();
    expect(parseNotifyPayload('"text"')).toBeNull();
    expect(parseNotifyPayload('{"x":1}')).toBeNull();
    expect(parseNotifyPayload('[1,"2",3.5,4]')).toEqual({ users: [1, 4], campaigns: [] });
  });

  it('E5: property: every id arrives exactly once, in order, and no payload passes the cap', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 2_147_483_647 }), { maxLength: 400 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 2_147_483_647 }), { maxLength: 50 }),
        fc.integer({ min: 30, max: 9000 }),
        (users, campaigns, max) => {
          const payloads = notifyPayloads({ users, campaigns }, max);
          for (const payload of payloads) expect(bytes(payload)).toBeLessThanOrEqual(max);
          const parsed = payloads.map((p) => parseNotifyPayload(p)!);
          expect(parsed.flatMap((a) => a.users)).toEqual(users);
          expect(parsed.flatMap((a) => a.campaigns)).toEqual(campaigns);
        },
      ),
    );
  });
});

describe('E4: topic index', () => {
  it('E4: reaches the subscribers of the topics asked for, each once, and drops emptied topics', () => {
    const index = new TopicIndex<number, string>();
    const offA = index.add(1, 'a');
    index.add(1, 'b');
    index.add(2, 'a');
    index.add(3, 'c');
    expect([...index.readersOf([1, 2])].sort()).toEqual(['a', 'b']);
    expect(index.size()).toBe(4);
    offA();
    offA();
    expect([...index.readersOf([1])]).toEqual(['b']);
    index.remove(3, 'c');
    expect(index.has(3)).toBe(false);
    expect([...index.topics()].sort()).toEqual([1, 2]);
    expect(index.size()).toBe(2);
  });

  it('E4: property: behaves as a list of (topic, subscriber) pairs', () => {
    const op = fc.record({
      add: fc.boolean(),
      topic: fc.integer({ min: 0, max: 5 }),
      who: fc.integer({ min: 0, max: 5 }),
    });
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 60 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 6 })),
        (ops, asked) => {
          const index = new TopicIndex<number, number>();
          const model = new Set<string>();
          for (const { add, topic, who } of ops) {
            if (add) {
              index.add(topic, who);
              model.add(`${topic}:${who}`);
            } else {
              index.remove(topic, who);
              model.delete(`${topic}:${who}`);
            }
          }
          expect(index.size()).toBe(model.size);
          const expected = new Set(
            [...model]
              .filter((k) => asked.includes(Number(k.split(':')[0])))
              .map((k) => Number(k.split(':')[1])),
          );
          expect(index.readersOf(asked)).toEqual(expected);
          expect(new Set(index.topics())).toEqual(new Set([...model].map((k) => Number(k.split(':')[0]))));
        },
      ),
    );
  });
});
