// @vitest-environment jsdom
/**
 * Both sign-in screens against the real server in one-time-code mode (in-process, PGlite), through the
 * real data layer (fake IndexedDB, a cookie jar): only the SMS provider is replaced, to read the codes.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { FastifyInstance } from 'fastify';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, type Device } from '../../../testkit/client/harness';
import { freshPhone } from '../../../testkit/client/server';
import { openTestDatabase } from '../../../testkit/server';
import { buildApp } from '../../server/app';
import type { Database } from '../../server/db/client';
import { DoorProvider } from '../app/door';
import { createQueryClient } from '../app/queryClient';
import { createDoor } from '../data/page';
import OnboardingPage from '../onboarding/OnboardingPage';
import { onboardingStore } from '../stores/onboardingStore';
import LoginPage from './LoginPage';

// The server's sign-in mode arrives with the first request of a cold test server; on a loaded machine
// that can take longer than findBy's one-second default.
const MODE_WAIT_MS = 10_000;
/**
 * Signing in goes to the server and starts the signed-in device before Home shows: over a second on
 * a loaded machine (a vitest run with three workers on two cores missed the default).
 */
const SIGN_IN_WAIT_MS = 10_000;

const sent: { to: string; message: string }[] = [];
const servers: { app: FastifyInstance; database: Database }[] = [];
const devices: Device[] = [];

async function startServer(authMode: 'demo' | 'otp'): Promise<string> {
  const database = await openTestDatabase('pglite');
  const app = await buildApp({
    database,
    config: { authMode, loginsPerMinute: 1000 },
    sms: { send: async (to, message) => void sent.push({ to, message }) },
  });
  servers.push({ app, database });
  return app.listen({ port: 0, host: '127.0.0.1' });
}

let otpUrl = '';
let demoUrl = '';

beforeAll(async () => {
  [otpUrl, demoUrl] = await Promise.all([startServer('otp'), startServer('demo')]);
});
afterEach(async () => {
  cleanup();
  // The tutorial's progress is persisted app state: every test starts at step 1.
  onboardingStore.getState().reset();
  // A sign-in starts a sync; let it end before the device's database closes.
  for (const d of devices.splice(0)) {
    await d.client.lastSync();
    d.client.close();
  }
});
afterAll(async () => {
  for (const { app, database } of servers) {
    await app.close();
    await database.close();
  }
});

/** The last code the server texted to this phone. */
function codeFor(phone: string): string {
  const last = [...sent].reverse().find((s) => s.to === phone);
  return /(\d{6})/.exec(last?.message ?? '')?.[1] ?? '';
}

function wrongCodeFor(phone: string): string {
  return codeFor(phone) === '000000' ? '111111' : '000000';
}

function renderAt(url: string, route: '/login' | '/onboarding') {
  const device = createDevice(url);
  devices.push(device);
  const services = createDoor(device.client);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <DoorProvider door={services}>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/onboarding" element={<OnboardingPage />} />
            <Route path="/" element={<p>Home page</p>} />
            <Route path="/contacts" element={<p>Contacts page</p>} />
          </Routes>
        </MemoryRouter>
      </DoorProvider>
    </QueryClientProvider>,
  );
  const toasts = () => device.client.toasts.getState().queue;
  return { device, toasts, lastToast: () => toasts().at(-1) };
}

const button = (name: string | RegExp) => screen.getByRole('button', { name });

describe('/login in otp mode', () => {
  it('sends a code, refuses a wrong one with the tries left, resends, and signs in with the right one', async () => {
    const { device, lastToast } = renderAt(otpUrl, '/login');
    const phone = freshPhone();
    // The server's mode arrives first: the form asks for a code instead of signing in.
    fireEvent.click(await screen.findByRole('button', { name: 'Send code' }, { timeout: MODE_WAIT_MS }));
    expect(await screen.findByText('Phone number is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: phone } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Olga' } });
    fireEvent.click(button('Send code'));

    const code = await screen.findByLabelText('Verification code');
    expect(lastToast()).toMatchObject({
      title: 'Code sent',
      description: 'Check your phone for the verification code',
    });
    expect(codeFor(phone)).toMatch(/^\d{6}$/);

    fireEvent.change(code, { target: { value: wrongCodeFor(phone) } });
    fireEvent.click(button('Sign In'));
    expect(await screen.findByText('The code is not correct. 4 tries left.')).toBeTruthy();
    expect(lastToast()).toMatchObject({
      title: 'Invalid code',
      description: 'Please enter the correct verification code. 4 tries left.',
      variant: 'destructive',
    });

    fireEvent.click(button('Resend code'));
    await waitFor(() => expect(sent.filter((s) => s.to === phone)).toHaveLength(2));
    // A new code replaces the old one (codes are single use and the newest counts).
    expect(codeFor(phone)).toMatch(/^\d{6}$/);
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: codeFor(phone) } });
    fireEvent.click(button('Sign In'));
    expect(await screen.findByText('Home page', undefined, { timeout: SIGN_IN_WAIT_MS })).toBeTruthy();
    expect(device.client.auth.getState()).toMatchObject({ isAuthenticated: true, user: { phone } });
  });

  it("says 'Too many attempts' with the server's wait once the phone is locked", async () => {
    const { device, lastToast } = renderAt(otpUrl, '/login');
    const phone = freshPhone();
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: phone } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Guess' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Send code' }, { timeout: MODE_WAIT_MS }));
    const code = await screen.findByLabelText('Verification code');
    for (let tries = 4; tries >= 1; tries--) {
      fireEvent.change(code, { target: { value: wrongCodeFor(phone) } });
      fireEvent.click(button('Sign In'));
      await waitFor(() =>
        expect(screen.getByRole('alert').textContent ?? '').toContain(
          `${tries} ${tries === 1 ? 'try' : 'tries'} left.`,
        ),
      );
    }
    fireEvent.change(code, { target: { value: wrongCodeFor(phone) } });
    fireEvent.click(button('Sign In'));
    await waitFor(() => expect(lastToast()?.title).toBe('Too many attempts'));
    expect(lastToast()?.description).toMatch(/Try again in 15 minutes/);
    expect(screen.getByText(/Too many wrong codes for this phone/)).toBeTruthy();
    expect(device.client.auth.getState().isAuthenticated).toBe(false);
  });
});

describe('/login in demo mode', () => {
  it('signs in with phone and name, no code step', async () => {
    const { device } = renderAt(demoUrl, '/login');
    const phone = freshPhone();
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: phone } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Demo' } });
    fireEvent.click(button('Sign In'));
    expect(await screen.findByText('Home page', undefined, { timeout: SIGN_IN_WAIT_MS })).toBeTruthy();
    expect(screen.queryByLabelText('Verification code')).toBeNull();
    expect(device.client.auth.getState()).toMatchObject({ isAuthenticated: true, user: { phone } });
  });
});

async function onboardingToCodeStep(phone: string) {
  fireEvent.click(button('Next'));
  fireEvent.click(screen.getByRole('radio', { name: /Sign In/ }));
  fireEvent.click(button('Next'));
  fireEvent.change(await screen.findByLabelText('Phone number'), { target: { value: phone } });
  fireEvent.click(button('Next'));
  return screen.findByLabelText('Verification code');
}

describe('onboarding in otp mode', () => {
  it('sends the code to the server: a wrong one shows its message, the right one signs in', async () => {
    const { device, lastToast } = renderAt(otpUrl, '/onboarding');
    const phone = freshPhone();
    const code = await onboardingToCodeStep(phone);
    expect(lastToast()).toMatchObject({ title: 'Code sent' });
    // A real code: no test-code hint, and a way to get another one.
    expect(screen.queryByText(/123456/)).toBeNull();
    expect(button('Resend code')).toBeTruthy();

    // 123456 is not special here: the server decides.
    const wrong = codeFor(phone) === '123456' ? '654321' : '123456';
    fireEvent.change(code, { target: { value: wrong } });
    fireEvent.click(button('Next'));
    expect(await screen.findByText('The code is not correct. 4 tries left.')).toBeTruthy();
    expect(lastToast()).toMatchObject({
      title: 'Invalid code',
      description: 'Please enter the correct verification code. 4 tries left.',
    });
    expect(device.client.auth.getState().isAuthenticated).toBe(false);

    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: codeFor(phone) } });
    fireEvent.click(button('Next'));
    expect(await screen.findByText('Import from CSV')).toBeTruthy();
    expect(lastToast()).toMatchObject({ title: 'Welcome!' });
    expect(device.client.auth.getState()).toMatchObject({ isAuthenticated: true, user: { phone } });
  });

  it("resends a code, and says 'Too many attempts' when the phone asked too often", async () => {
    const { lastToast } = renderAt(otpUrl, '/onboarding');
    const phone = freshPhone();
    await onboardingToCodeStep(phone);
    await waitFor(() => expect(codeFor(phone)).toMatch(/^\d{6}$/));
    // Five code requests per phone in 15 minutes: the first plus four resends, then a 429.
    for (let n = 2; n <= 5; n++) {
      fireEvent.click(button('Resend code'));
      await waitFor(() => expect(sent.filter((s) => s.to === phone)).toHaveLength(n));
      await waitFor(() => expect((button('Resend code') as HTMLButtonElement).disabled).toBe(false));
    }
    fireEvent.click(button('Resend code'));
    await waitFor(() => expect(lastToast()?.title).toBe('Too many attempts'));
    expect(lastToast()?.description).toMatch(
      /Too many code requests for this phone\. Please wait \d+ seconds?/,
    );
  });
});

describe('onboarding in demo mode', () => {
  it('keeps the test-code hint and signs in with 123456', async () => {
    const { device } = renderAt(demoUrl, '/onboarding');
    const phone = freshPhone();
    const code = await onboardingToCodeStep(phone);
    expect(screen.getByText('Testing? The code 123456 is accepted.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resend code' })).toBeNull();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(button('Next'));
    expect(await screen.findByText('Import from CSV')).toBeTruthy();
    expect(device.client.auth.getState()).toMatchObject({ isAuthenticated: true, user: { phone } });
  });
});
