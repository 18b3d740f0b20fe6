// @vitest-environment jsdom
/**
 * Preferences › Email against the real server and the real data layer, on a server without SMTP_URL:
 * the section says mail is off and its switches are disabled; offline, the last state it read stays
 * on screen, read-only, in the app's offline words; a guest is offered sign-in (issue 65).
 */
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, type Device, settled, signIn } from '../../../testkit/client/harness';
import { renderWithApp } from '../../../testkit/client/renderWithApp';
import { freshPhone, startClientTestServer } from '../../../testkit/client/server';
import { EMAIL_KIND_LABELS, EMAIL_KINDS } from '../../shared/email';
import { EmailSection, hourText } from './EmailSection';

let server: Awaited<ReturnType<typeof startClientTestServer>>;
const devices: Device[] = [];

beforeAll(async () => {
  server = await startClientTestServer();
});

afterEach(() => cleanup());

afterAll(async () => {
  await settled(...devices);
  for (const d of devices) d.client.close();
  await server?.close();
});

async function signedIn(name: string): Promise<Device> {
  const device = createDevice(server.url);
  devices.push(device);
  await signIn(device, freshPhone(), name);
  return device;
}

function section(): HTMLElement {
  return screen.getByRole('region', { name: 'Email' });
}

describe('Preferences › Email', () => {
  it('on a server that sends no mail, says so and disables every switch, the digest and the test', async () => {
    const device = await signedIn('No Mail Here');
    renderWithApp(<EmailSection />, { client: device.client });
    await screen.findByText('This server does not send email. Ask whoever runs it to set SMTP_URL.');
    for (const kind of EMAIL_KINDS) {
      const control = within(section()).getByRole('switch', { name: EMAIL_KIND_LABELS[kind].label });
      expect(control.hasAttribute('disabled'), kind).toBe(true);
    }
    expect((within(section()).getByLabelText('Daily digest') as HTMLSelectElement).disabled).toBe(true);
    expect(
      (within(section()).getByRole('button', { name: 'Send a test email' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect((within(section()).getByLabelText('Email address') as HTMLInputElement).disabled).toBe(true);
  });

  it('offline, keeps showing the state it last read, read-only, and says why', async () => {
    const device = await signedIn('Goes Offline');
    renderWithApp(<EmailSection />, { client: device.client });
    const assigned = await within(await screen.findByRole('region', { name: 'Email' })).findByRole('switch', {
      name: EMAIL_KIND_LABELS.assigned.label,
    });
    expect(assigned.getAttribute('aria-checked')).toBe('true');
    await act(async () => {
      device.goOffline();
      // What the connectivity service does once started: the screens read the status store.
      device.client.status.getState().setOnline(false);
    });
    await screen.findByText(/You're offline\. These are your email settings as last seen/);
    expect(
      within(section())
        .getByRole('switch', { name: EMAIL_KIND_LABELS.assigned.label })
        .getAttribute('aria-checked'),
    ).toBe('true');
    await act(async () => {
      device.goOnline();
      device.client.status.getState().setOnline(true);
    });
    await waitFor(() => expect(screen.queryByText(/These are your email settings as last seen/)).toBeNull());
  });

  it('offers a guest sign-in instead of the settings, asking the server nothing', async () => {
    const device = createDevice(server.url);
    devices.push(device);
    renderWithApp(<EmailSection />, { client: device.client });
    expect(await screen.findByText(/Email needs an account/)).toBeTruthy();
    expect(within(section()).getByRole('link', { name: 'Sign in to get email' }).getAttribute('href')).toBe(
      '/login',
    );
    expect(device.control.requests.filter((r) => r.url.includes('/api/me/email'))).toEqual([]);
  });

  it('writes the digest hours as the locale does', () => {
    expect(hourText(8)).toBe(
      new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(
        new Date(2000, 0, 1, 8),
      ),
    );
    expect(new Set(Array.from({ length: 24 }, (_, h) => hourText(h))).size).toBe(24);
  });
});
