import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A certificate and its key, as PEM text and as the files they were written to. */
export interface Certificate {
  key: string;
  cert: string;
  keyFile: string;
  certFile: string;
}

/**
 * A self-signed certificate for localhost and 127.0.0.1 in `dir` (key.pem, cert.pem), made with the
 * openssl CLI. Apart from the test provider so the browser suite's config can make one before any
 * server starts without loading oidc-provider in every worker.
 */
export function selfSignedCertificate(dir: string): Certificate {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return readCertificate(dir);
}

/** The certificate `selfSignedCertificate` wrote to `dir`. */
export function readCertificate(dir: string): Certificate {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), keyFile, certFile };
}
