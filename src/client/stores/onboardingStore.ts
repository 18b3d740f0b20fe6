import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export const ONBOARDING_STORAGE_KEY = 'onboarding-storage';

/** The tutorial's account prompt: 'Sign In', 'Continue Without Account', or not answered yet. */
export type OnboardingAccountChoice = 'sign-in' | 'local' | null;

/** The spec's persisted onboarding state. */
export interface OnboardingData {
  hasCompletedOnboarding: boolean;
  currentStep: number;
  /** Kept with currentStep so a tutorial closed midway (or reloaded) resumes the same step list. */
  accountChoice: OnboardingAccountChoice;
  skippedAt: string | null;
  completedAt: string | null;
}

export interface OnboardingState extends OnboardingData {
  setCurrentStep: (step: number) => void;
  setAccountChoice: (choice: OnboardingAccountChoice) => void;
  complete: () => void;
  skip: () => void;
  /** Clears everything so onboarding shows again. */
  reset: () => void;
}

const initial: OnboardingData = {
  hasCompletedOnboarding: false,
  currentStep: 0,
  accountChoice: null,
  skippedAt: null,
  completedAt: null,
};

function persisted(data: OnboardingData): OnboardingData {
  const { hasCompletedOnboarding, currentStep, accountChoice, skippedAt, completedAt } = data;
  return { hasCompletedOnboarding, currentStep, accountChoice, skippedAt, completedAt };
}

/** What was stored, in zustand persist's envelope ({state, version}) that existing devices hold. */
function readStored(storage: () => Storage): Partial<OnboardingData> {
  try {
    const raw = storage().getItem(ONBOARDING_STORAGE_KEY);
    const state = raw ? (JSON.parse(raw) as { state?: unknown }).state : undefined;
    return state && typeof state === 'object' ? persisted({ ...initial, ...state }) : {};
  } catch {
    // Unreadable or blocked storage: the tutorial starts over, as on a new device.
    return {};
  }
}

/**
 * The onboarding state, kept in localStorage on every change and read back at creation (synchronously:
 * the first screen is chosen from it before React renders). Hand-rolled rather than zustand's persist
 * middleware, which cost the first screen a kilobyte for this one store.
 */
export function createOnboardingStore(storage: () => Storage = () => localStorage) {
  const store = createStore<OnboardingState>()((set) => ({
    ...initial,
    ...readStored(storage),
    setCurrentStep: (currentStep) => set({ currentStep }),
    setAccountChoice: (accountChoice) => set({ accountChoice }),
    complete: () => set({ hasCompletedOnboarding: true, completedAt: new Date().toISOString() }),
    skip: () => set({ hasCompletedOnboarding: true, skippedAt: new Date().toISOString() }),
    reset: () => set({ ...initial }),
  }));
  store.subscribe((state) => {
    try {
      storage().setItem(ONBOARDING_STORAGE_KEY, JSON.stringify({ state: persisted(state), version: 0 }));
    } catch {
      // Not kept for the next visit; this one goes on.
    }
  });
  return store;
}

export const onboardingStore = createOnboardingStore();

export function useOnboarding<T>(selector: (s: OnboardingState) => T): T {
  return useStore(onboardingStore, selector);
}
