import { describe, expect, it } from 'vitest';
import { NOTIFY_PAYLOAD_MAX_BYTES } from '../../shared/fanout';
import { parseSessionEndPayload, sessionEndPayloads } from './changeBus';

const id = (n: number) => n.toString(16).padStart(64, '0');

describe('ended sessions between instances', () => {
  it('E7: splits many ended sessions into NOTIFY payloads under the limit, every id exactly once', () => {
    const ids = Array.from({ length: 1000 }, (_, n) => id(n));
    const payloads = sessionEndPayloads([...ids, id(5)], 'everywhere');
    expect(payloads.length).toBeGreaterThan(1);
    const seen: string[] = [];
    for (const payload of payloads) {
      expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(NOTIFY_PAYLOAD_MAX_BYTES);
      const parsed = parseSessionEndPayload(payload);
      expect(parsed?.reason).toBe('everywhere');
      seen.push(...(parsed?.ids ?? []));
    }
    expect(seen).toEqual(ids);
  });

  it('E7: ignores a payload it did not write', () => {
    expect(parseSessionEndPayload('not json')).toBeNull();
    expect(parseSessionEndPayload(JSON.stringify({ r: 'bored', s: [id(1)] }))).toBeNull();
    expect(parseSessionEndPayload(JSON.stringify({ r: 'logout', s: ['short'] }))).toBeNull();
    expect(parseSessionEndPayload(JSON.stringify({ r: 'logout', s: [id(1)] }))).toEqual({
      ids: [id(1)],
      reason: 'logout',
    });
  });
});
