import { useStore } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
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

export function createOnboardingStore(storage: () => Storage = () => localStorage) {
  return createStore<OnboardingState>()(
    persist(
      (set) => ({
        ...initial,
        setCurrentStep: (currentStep) => set({ currentStep }),
        setAccountChoice: (accountChoice) => set({ accountChoice }),
        complete: () => set({ hasCompletedOnboarding: true, completedAt: new Date().toISOString() }),
        skip: () => set({ hasCompletedOnboarding: true, skippedAt: new Date().toISOString() }),
        reset: () => set({ ...initial }),
      }),
      {
        name: ONBOARDING_STORAGE_KEY,
        storage: createJSONStorage(storage),
        partialize: ({ hasCompletedOnboarding, currentStep, accountChoice, skippedAt, completedAt }) => ({
          hasCompletedOnboarding,
          currentStep,
          accountChoice,
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
