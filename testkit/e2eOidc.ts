/**
 * The test provider the browser suite runs beside the app (testkit/oidcProviderServer.ts, started by
 * playwright.config.ts): its people and its button's name, shared by the config, the provider and
 * e2e/oidc.spec.ts. Nothing here loads oidc-provider.
 */
export const E2E_OIDC_NAME = 'Test ID';
export const E2E_OIDC_CLIENT_ID = 'outpost';

/** The people the provider's sign-in page knows, by username. */
export const E2E_OIDC_ACCOUNTS = {
  olga: { name: 'Olga Ortiz', email: 'olga@example.com', email_verified: true },
  omar: { name: 'Omar Okafor', email: 'omar@example.com', email_verified: true },
} as const;
