import type { AppConfig } from '../env';

/** Sends a text message; how is the deployment's choice. */
export interface SmsProvider {
  send(to: string, message: string): Promise<void>;
}

/** Development: the code appears in the server's log. */
export function consoleSmsProvider(log: (line: string) => void = console.log): SmsProvider {
  return {
    async send(to, message) {
      log(`[sms] to ${to}: ${message}`);
    },
  };
}

/** Real use: POSTs `{to, message}` as JSON to a webhook (an SMS gateway or a small relay of yours). */
export function webhookSmsProvider(
  url: string,
  token?: string,
  fetchImpl: typeof fetch = fetch,
): SmsProvider {
  return {
    async send(to, message) {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ to, message }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`SMS webhook answered ${response.status}`);
    },
  };
}

export function smsProviderFor(config: AppConfig, log: (line: string) => void): SmsProvider {
  if (config.sms.provider === 'webhook' && config.sms.webhookUrl) {
    return webhookSmsProvider(config.sms.webhookUrl, config.sms.webhookToken);
  }
  return consoleSmsProvider(log);
}
