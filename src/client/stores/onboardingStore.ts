import { useStore } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';

export const ONBOARDING_STORAGE_KEY = 'onboarding-storage';

/** The spec's persisted onboarding state. */
export interface OnboardingData {
  hasCompletedOnboarding: boolean;
  currentStep: number;
  skippedAt: string | null;
  completedAt: string | null;
}

export interface OnboardingState extends OnboardingData {
  setCurrentStep: (step: number) => void;
  complete: () => void;
  skip: () => void;
  /** Clears everything so onboarding shows again. */
  reset: () => void;
}

const initial: OnboardingData = {
  hasCompletedOnboarding: false,
  currentStep: 0,
  skippedAt: null,
  completedAt: null,
};

export function createOnboardingStore(storage: () => Storage = () => localStorage) {
  return createStore<OnboardingState>()(
    persist(
      (set) => ({
        ...initial,
        setCurrentStep: (currentStep) => set({ currentStep }),
        complete: () => set({ hasCompletedOnboarding: true, completedAt: new Date().toISOString() }),
        skip: () => set({ hasCompletedOnboarding: true, skippedAt: new Date().toISOString() }),
        reset: () => set({ ...initial }),
      }),
      {
        name: ONBOARDING_STORAGE_KEY,
        storage: createJSONStorage(storage),
        partialize: ({ hasCompletedOnboarding, currentStep, skippedAt, completedAt }) => ({
          hasCompletedOnboarding,
          currentStep,
          skippedAt,
          completedAt,
        }),
      },
    ),
  );
}

export const onboardingStore = createOnboardingStore();

export function useOnboarding<T>(selector: (s: OnboardingState) => T): T {
  return useStore(onboardingStore, selector);
}
