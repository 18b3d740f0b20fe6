// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageDoor, type Send } from './door';
import { pageLifeRead } from './pageLifeRead';

/** A door's `send` (only its identity matters here: the fact is kept per door). */
const door = () => (async () => undefined) as unknown as Send;

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  if (online) window.dispatchEvent(new Event('online'));
}

afterEach(() => setOnline(true));

describe('a fact the sign-in screens read once per page life', () => {
  it('asks once however many screens read it at once, and keeps the answer', async () => {
    const ask = vi.fn(async () => 'otp');
    const read = pageLifeRead(ask);
    const send = door();
    await Promise.all([read.ensure(send), read.ensure(send), read.ensure(send)]);
    await read.ensure(send);
    expect(ask).toHaveBeenCalledTimes(1);
    expect(read.storeOf(send).getState().value).toBe('otp');
  });

  it('keeps no failed answer: the next reader asks again', async () => {
    let fail = true;
    const ask = vi.fn(async () => {
      if (fail) throw new Error('unreachable');
      return 'otp';
    });
    const read = pageLifeRead(ask);
    const send = door();
    expect(read.storeOf(send).getState().settled).toBe(false);
    await read.ensure(send);
    expect(read.storeOf(send).getState()).toEqual({ value: undefined, settled: true });
    fail = false;
    await read.ensure(send);
    expect(ask).toHaveBeenCalledTimes(2);
    expect(read.storeOf(send).getState().value).toBe('otp');
  });

  it('waits while the browser is offline and asks when it is back', async () => {
    const ask = vi.fn(async () => 'otp');
    const read = pageLifeRead(ask);
    const send = door();
    setOnline(false);
    await read.ensure(send);
    await read.ensure(send);
    expect(ask).not.toHaveBeenCalled();
    setOnline(true);
    await vi.waitFor(() => expect(read.storeOf(send).getState().value).toBe('otp'));
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it('keeps a value set while the ask was on its way over the older answer', async () => {
    let answer: (mode: string) => void = () => {};
    const read = pageLifeRead(() => new Promise<string>((resolve) => (answer = resolve)));
    const send = door();
    const asking = read.ensure(send);
    read.storeOf(send).setState({ value: 'demo' });
    answer('otp');
    await asking;
    expect(read.storeOf(send).getState().value).toBe('demo');
  });

  it('asks once per page: the data layer’s door, taking over from the shell’s, finds the answer kept', async () => {
    const ask = vi.fn(async () => ({ oidc: null }));
    const shell = pageDoor().send;
    const dataLayer = door();
    // The two doors of one page share a scope; the default (door.ts factScope) gives the shell's.
    const read = pageLifeRead(ask, (send) => (send === dataLayer ? shell : send));
    await read.ensure(shell);
    await read.ensure(dataLayer);
    expect(ask).toHaveBeenCalledTimes(1);
    expect(read.storeOf(dataLayer).getState().value).toEqual({ oidc: null });
  });

  it('keeps each door’s answer apart (a test server per door)', async () => {
    const read = pageLifeRead(async (send) => (send === first ? 'otp' : 'demo'));
    const first = door();
    const second = door();
    await Promise.all([read.ensure(first), read.ensure(second)]);
    expect(read.storeOf(first).getState().value).toBe('otp');
    expect(read.storeOf(second).getState().value).toBe('demo');
  });
});
