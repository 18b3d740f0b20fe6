// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToastInput } from '../stores/toastStore';
import { registerPwa } from './pwa';

type RegisterOptions = Parameters<typeof import('virtual:pwa-register').registerSW>[0];

function withServiceWorker(): EventTarget {
  const container = new EventTarget();
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
  return container;
}

/** Registers with spies for the toasts, the update call and the reload; returns what the plugin was given. */
async function registerWithSpies() {
  const toasts: ToastInput[] = [];
  const updateSW = vi.fn(async () => {});
  const reload = vi.fn();
  let options: RegisterOptions | undefined;
  await registerPwa({
    reload,
    toast: (input) => {
      toasts.push(input);
      return 'toast-1';
    },
    register: async () => (opts) => {
      options = opts;
      return updateSW;
    },
  });
  return { toasts, updateSW, reload, options };
}

describe('the service worker registration', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it("says 'Update available' once, and its Reload activates the new worker and reloads once it controls the page", async () => {
    const container = withServiceWorker();
    const { toasts, updateSW, reload, options } = await registerWithSpies();
    options?.onNeedRefresh?.();
    options?.onNeedRefresh?.();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]?.title).toBe('Update available');
    expect(toasts[0]?.duration).toBe(Number.POSITIVE_INFINITY);
    expect(toasts[0]?.action?.label).toBe('Reload');
    toasts[0]?.action?.onClick();
    expect(updateSW).toHaveBeenCalledWith(false);
    expect(reload).not.toHaveBeenCalled();
    container.dispatchEvent(new Event('controllerchange'));
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads once when the new worker is activated, even if no controllerchange comes', async () => {
    withServiceWorker();
    const { toasts, reload, options } = await registerWithSpies();
    const waiting = Object.assign(new EventTarget(), { state: 'installed' });
    options?.onRegisteredSW?.('/sw.js', {
      update: async () => {},
      waiting,
    } as unknown as ServiceWorkerRegistration);
    options?.onNeedRefresh?.();
    toasts[0]?.action?.onClick();
    waiting.state = 'activating';
    waiting.dispatchEvent(new Event('statechange'));
    expect(reload).not.toHaveBeenCalled();
    waiting.state = 'activated';
    waiting.dispatchEvent(new Event('statechange'));
    expect(reload).toHaveBeenCalledTimes(1);
    navigator.serviceWorker.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('checks for a new version when the tab becomes visible again, not while offline', async () => {
    withServiceWorker();
    const update = vi.fn(async () => {});
    let options: RegisterOptions;
    await registerPwa({
      toast: () => 'toast-1',
      register: async () => (opts) => {
        options = opts;
        return async () => {};
      },
    });
    options?.onRegisteredSW?.('/sw.js', { update } as unknown as ServiceWorkerRegistration);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(update).toHaveBeenCalledTimes(1);
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(update).toHaveBeenCalledTimes(1);
    online.mockRestore();
  });

  it('does nothing where the browser has no service workers', async () => {
    const register = vi.fn();
    await registerPwa({ toast: () => 'toast-1', register });
    expect(register).not.toHaveBeenCalled();
  });
});
