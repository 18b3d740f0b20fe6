/**
 * Onboarding step logic, free of React so it can be tested on its own.
 *
 * The spec's step sets. Decision: the account prompt stays in every set for a guest, so the choice
 * stays visible (and changeable with Previous). A user who is already signed in (for example 'View
 * Tutorial' from Preferences) is not asked to sign in again and sees the signed-in tour. 'Step X of N'
 * counts the chosen path; before the guest's choice it counts the longest one (see countedSteps).
 */
export const STEP_IDS = [
  'welcome',
  'account',
  'phone',
  'code',
  'contacts',
  'my-work',
  'tasks',
  'offline',
  'collaboration',
  'mobile',
] as const;
export type StepId = (typeof STEP_IDS)[number];

/** null: not chosen yet; 'sign-in': Sign In; 'local': Continue Without Account. */
export type AccountChoice = 'sign-in' | 'local' | null;

export const OFFLINE_STEPS: readonly StepId[] = ['my-work', 'tasks', 'offline', 'mobile'];
export const SIGNED_IN_TOUR: readonly StepId[] = ['my-work', 'tasks', 'collaboration', 'mobile'];

export function stepsFor(choice: AccountChoice, signedIn = false): StepId[] {
  if (signedIn && choice !== 'sign-in') return ['welcome', ...SIGNED_IN_TOUR];
  if (choice === 'sign-in') return ['welcome', 'account', 'phone', 'code', 'contacts', ...SIGNED_IN_TOUR];
  return ['welcome', 'account', ...OFFLINE_STEPS];
}

/**
 * The steps 'Step X of N' counts: the chosen path's. Before a guest's choice the path is unknown, and
 * counting the shorter one made the total jump from 6 to 9 on picking Sign In; the longest is counted
 * instead, so a pick can only shorten what is left ('Continue Without Account'), never lengthen it.
 */
export function countedSteps(choice: AccountChoice, signedIn = false): StepId[] {
  return choice === null && !signedIn ? stepsFor('sign-in') : stepsFor(choice, signedIn);
}

export const PHONE_MIN_LENGTH = 10;
export const CODE_LENGTH = 6;
/** The placeholder login of the demo auth mode accepts this code (ARCHITECTURE §5). */
export const TEST_CODE = '123456';
/**
 * The onboarding sign-in sends the name given on the phone step, else the spec's placeholder; the
 * server replaces a stored placeholder with a real name and keeps a chosen one (N12).
 */
export { PLACEHOLDER_NAME } from '../../shared/profile';
export const EXIT_DELAY_MS = 300;

export interface Notice {
  title: string;
  description: string;
}

export const NOTICES = {
  invalidPhone: { title: 'Invalid phone number', description: 'Please enter a valid phone number' },
  invalidCode: { title: 'Invalid code', description: 'Please enter the correct verification code' },
  codeSent: { title: 'Code sent', description: 'Check your phone for the verification code' },
  welcome: { title: 'Welcome!', description: 'You have successfully logged in' },
  loginFailed: { title: 'Login failed', description: 'Please try again' },
} as const satisfies Record<string, Notice>;

/** The spec's phone rule for this step: non-empty and at least 10 characters. */
export function validatePhone(phone: string): Notice | null {
  const trimmed = phone.trim();
  return trimmed.length >= PHONE_MIN_LENGTH ? null : NOTICES.invalidPhone;
}

/** Six digits, and (in this client) only the fixed test value. */
export function validateCode(code: string): Notice | null {
  const trimmed = code.trim();
  if (!new RegExp(`^\\d{${CODE_LENGTH}}$`).test(trimmed)) return NOTICES.invalidCode;
  return trimmed === TEST_CODE ? null : NOTICES.invalidCode;
}

/** Keeps only digits, at most six, for the code input. */
export function sanitizeCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, CODE_LENGTH);
}

export interface StepInputs {
  choice: AccountChoice;
  phone: string;
  code: string;
  busy: boolean;
}

/** Whether Next can be pressed: the account prompt needs a choice; input steps need something typed. */
export function canGoNext(step: StepId, inputs: StepInputs): boolean {
  if (inputs.busy) return false;
  switch (step) {
    case 'account':
      return inputs.choice !== null;
    case 'phone':
      return inputs.phone.trim().length > 0;
    case 'code':
      return inputs.code.length === CODE_LENGTH;
    default:
      return true;
  }
}

/** Index to show after the step list changed (the choice moved us to a different set). */
export function clampStep(index: number, steps: readonly StepId[]): number {
  return Math.max(0, Math.min(index, steps.length - 1));
}

export function isLastStep(index: number, steps: readonly StepId[]): boolean {
  return index >= steps.length - 1;
}

/** 'Step X of N' and the progress bar's percentage. */
export function progressOf(index: number, steps: readonly StepId[]): { label: string; percent: number } {
  const n = steps.length;
  const x = Math.min(index + 1, n);
  return { label: `Step ${x} of ${n}`, percent: Math.round((x / n) * 100) };
}
