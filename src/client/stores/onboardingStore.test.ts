import { describe, expect, it } from 'vitest';
import { createOnboardingStore, ONBOARDING_STORAGE_KEY } from './onboardingStore';

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, v),
  };
}

describe('onboarding store', () => {
  it('persists the account choice with the step, so a reload resumes the same step list', () => {
    const storage = memoryStorage();
    const first = createOnboardingStore(() => storage);
    first.getState().setAccountChoice('sign-in');
    first.getState().setCurrentStep(4);
    first.getState().skip();
    expect(JSON.parse(storage.getItem(ONBOARDING_STORAGE_KEY) ?? '{}').state).toMatchObject({
      accountChoice: 'sign-in',
      currentStep: 4,
    });
    const reloaded = createOnboardingStore(() => storage);
    expect(reloaded.getState()).toMatchObject({ accountChoice: 'sign-in', currentStep: 4 });
  });

  it('forgets the choice on Reset Tutorial', () => {
    const store = createOnboardingStore(() => memoryStorage());
    store.getState().setAccountChoice('local');
    store.getState().reset();
    expect(store.getState()).toMatchObject({
      accountChoice: null,
      currentStep: 0,
      hasCompletedOnboarding: false,
    });
  });
});
