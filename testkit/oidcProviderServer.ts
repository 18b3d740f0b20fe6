import { E2E_OIDC_ACCOUNTS } from './e2eOidc';
import { startOidcProvider } from './oidcProvider';
import { readCertificate } from './selfSignedCertificate';

/*
 * The test OpenID provider as its own process, for the browser suite: playwright.config.ts starts it
 * as the first web server, on the port and with the certificate it chose before any server started
 * (the app server trusts that certificate through NODE_EXTRA_CA_CERTS from its own start).
 */
const port = Number(process.env.E2E_OIDC_PORT);
const dir = process.env.E2E_OIDC_DIR;
const redirectUri = process.env.E2E_OIDC_REDIRECT_URI;
const clientSecret = process.env.E2E_OIDC_SECRET;
if (!port || !dir || !redirectUri || !clientSecret) {
  console.error('E2E_OIDC_PORT, E2E_OIDC_DIR, E2E_OIDC_REDIRECT_URI and E2E_OIDC_SECRET are required');
  process.exit(1);
}

const provider = await startOidcProvider([redirectUri], {
  port,
  certificate: readCertificate(dir),
  clientSecret,
  loginPage: true,
});
for (const [id, account] of Object.entries(E2E_OIDC_ACCOUNTS)) provider.accounts.set(id, { ...account });
console.log(`test OpenID provider at ${provider.issuer}`);

const stop = () => {
  void provider.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
