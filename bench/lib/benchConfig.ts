import { type AppConfig, loadConfig } from '../../src/server/env';

/**
 * The settings of an in-process bench app: quiet log, no sample users, and the per-person limits off
 * (a bench session sends far more writes and sign-ins a minute than a person); `env` adds to them.
 */
export function benchConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    LOG_LEVEL: 'error',
    SEED_SAMPLE_USERS: 'false',
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    RATE_LIMIT_LOGINS_PER_MINUTE: '0',
    ...env,
  });
}
