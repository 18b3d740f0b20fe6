// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OnboardingFlow, type OnboardingFlowProps } from './OnboardingFlow';
import { NOTICES, PLACEHOLDER_NAME } from './steps';

afterEach(cleanup);

function setup(overrides: Partial<OnboardingFlowProps> = {}) {
  const props = {
    signedIn: false,
    signIn: vi.fn(async () => ({})),
    requestCode: vi.fn(async () => 'demo' as const),
    notify: vi.fn(),
    onFinish: vi.fn(),
    ...overrides,
  } satisfies OnboardingFlowProps;
  render(<OnboardingFlow {...props} />);
  return props;
}

const next = () => screen.getByRole('button', { name: /^(Next|Get Started)$/ });

async function toPhoneStep() {
  fireEvent.click(next());
  fireEvent.click(screen.getByRole('radio', { name: /Sign In/ }));
  fireEvent.click(next());
  await screen.findByLabelText('Phone number');
}

describe('OnboardingFlow', () => {
  it('starts at Step 1 of 9 (the longest path, until the guest chooses) with Previous disabled', () => {
    setup();
    expect(screen.getByText('Step 1 of 9')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('keeps Next disabled on the account prompt until a choice is picked', () => {
    setup();
    fireEvent.click(next());
    expect(screen.getByText('Step 2 of 9')).toBeTruthy();
    expect((next() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: /Continue Without Account/ }));
    expect((next() as HTMLButtonElement).disabled).toBe(false);
  });

  it('never makes the total bigger at the choice: Sign In keeps "of 9", Continue Without Account shortens it to 6', () => {
    setup();
    fireEvent.click(next());
    fireEvent.click(screen.getByRole('radio', { name: /Sign In/ }));
    expect(screen.getByText('Step 2 of 9')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: /Continue Without Account/ }));
    expect(screen.getByText('Step 2 of 6')).toBeTruthy();
  });

  it('resumes the chosen path: a saved Sign In choice and step reopen on the same step list', () => {
    const props = setup({ initialChoice: 'sign-in', initialStep: 4, onChoiceChange: vi.fn() });
    expect(screen.getByText('Step 5 of 9')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Find people you know' })).toBeTruthy();
    expect(props.onChoiceChange).toHaveBeenLastCalledWith('sign-in');
  });

  it('offers Import from Phone only where the Contact Picker API exists', () => {
    setup({ initialChoice: 'sign-in', initialStep: 4 });
    expect(screen.queryByRole('button', { name: 'Import from Phone' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Import from CSV' })).toBeTruthy();
    cleanup();
    Object.defineProperty(navigator, 'contacts', { value: { select: async () => [] }, configurable: true });
    try {
      setup({ initialChoice: 'sign-in', initialStep: 4 });
      expect(screen.getByRole('button', { name: 'Import from Phone' })).toBeTruthy();
    } finally {
      Reflect.deleteProperty(navigator, 'contacts');
    }
  });

  it('reports the account choice so it can be saved with the step', () => {
    const onChoiceChange = vi.fn();
    setup({ onChoiceChange });
    fireEvent.click(next());
    fireEvent.click(screen.getByRole('radio', { name: /Continue Without Account/ }));
    expect(onChoiceChange).toHaveBeenLastCalledWith('local');
  });

  it('switches to the sign-in steps when Sign In is chosen', async () => {
    setup();
    await toPhoneStep();
    expect(screen.getByText('Step 3 of 9')).toBeTruthy();
  });

  it('rejects a short phone number with the spec message and stays', async () => {
    const props = setup();
    await toPhoneStep();
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '555123' } });
    fireEvent.click(next());
    expect(props.notify).toHaveBeenCalledWith(NOTICES.invalidPhone, 'destructive');
    expect(screen.getByText('Please enter a valid phone number')).toBeTruthy();
    expect(props.requestCode).not.toHaveBeenCalled();
  });

  it('rejects a wrong code, then signs in with the phone and a placeholder name', async () => {
    const props = setup();
    await toPhoneStep();
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '+15551234567' } });
    fireEvent.click(next());
    const code = await screen.findByLabelText('Verification code');
    expect(props.notify).toHaveBeenCalledWith(NOTICES.codeSent);
    expect(screen.getByText(/The code 123456 is accepted/)).toBeTruthy();

    fireEvent.change(code, { target: { value: '111111' } });
    fireEvent.click(next());
    expect(props.notify).toHaveBeenCalledWith(NOTICES.invalidCode, 'destructive');
    expect(props.signIn).not.toHaveBeenCalled();

    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(next());
    await screen.findByText('Import from CSV');
    expect(props.signIn).toHaveBeenCalledWith('+15551234567', PLACEHOLDER_NAME, '123456');
    expect(props.notify).toHaveBeenCalledWith(NOTICES.welcome);
  });

  it('N12: signs in with the name given on the phone step, trimmed', async () => {
    const props = setup();
    await toPhoneStep();
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '+15551234567' } });
    fireEvent.change(screen.getByLabelText('Your name (optional)'), { target: { value: '  Ada Lovelace ' } });
    fireEvent.click(next());
    fireEvent.change(await screen.findByLabelText('Verification code'), { target: { value: '123456' } });
    fireEvent.click(next());
    await screen.findByText('Import from CSV');
    expect(props.signIn).toHaveBeenCalledWith('+15551234567', 'Ada Lovelace', '123456');
  });

  it('stays on the code step when the login fails', async () => {
    const props = setup({ signIn: vi.fn(async () => Promise.reject(new Error('down'))) });
    await toPhoneStep();
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '5551234567' } });
    fireEvent.click(next());
    fireEvent.change(await screen.findByLabelText('Verification code'), { target: { value: '123456' } });
    fireEvent.click(next());
    await waitFor(() => expect(props.notify).toHaveBeenCalledWith(NOTICES.loginFailed, 'destructive'));
    expect(screen.getByLabelText('Verification code')).toBeTruthy();
  });

  it('skips when the close button is pressed', () => {
    const props = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Skip tutorial' }));
    expect(props.onFinish).toHaveBeenCalledWith('skip', '/');
  });

  it('finishes with Get Started on the last step', async () => {
    const props = setup();
    fireEvent.click(next());
    fireEvent.click(screen.getByRole('radio', { name: /Continue Without Account/ }));
    for (let i = 0; i < 4; i++) {
      await act(async () => {
        fireEvent.click(next());
      });
    }
    expect(screen.getByText('Step 6 of 6')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Get Started' }));
    expect(props.onFinish).toHaveBeenCalledWith('complete', '/');
  });
});
