import type { FastifyInstance } from 'fastify';

/**
 * A service a setting names that readiness asks about (ARCHITECTURE §4 'Running it'): a wrong or
 * unreachable OIDC_ISSUER or SMTP_URL makes readiness 503 with the variable's name, never a feature
 * that silently does not work. Resources register theirs (oidc/, email/); health/routes.ts asks them.
 */
export interface ReadinessCheck {
  /** The environment variable to look at, the start of the 503's message. */
  setting: string;
  /** Resolves when the service answers; rejects with why not (its message follows the setting). */
  run(): Promise<void>;
  /** How long an answer stands: a balancer's probes every few seconds do not each open a connection. */
  cacheMs: number;
}

interface Registered extends ReadinessCheck {
  last: { at: number; problem: Promise<string | null> } | null;
  /** The last problem logged, so a lasting one is logged once, not at every probe. */
  logged: string | null;
}

// By the HTTP server, which every encapsulated plugin context of one app shares (a decoration
// made inside a plugin is that plugin's alone).
const registry = new WeakMap<object, Registered[]>();

/** Registers a check readiness makes; an app whose service answers stays ready. */
export function addReadinessCheck(app: FastifyInstance, check: ReadinessCheck): void {
  const list = registry.get(app.server) ?? [];
  list.push({ ...check, last: null, logged: null });
  registry.set(app.server, list);
}

/**
 * The first registered check that fails, as `SETTING: why`, or null. Each answer is kept for its
 * check's cacheMs; one that takes longer than `timeoutMs` counts as not answering.
 */
export async function readinessCheckProblem(app: FastifyInstance, timeoutMs: number): Promise<string | null> {
  const now = Date.now();
  for (const check of registry.get(app.server) ?? []) {
    if (!check.last || now - check.last.at >= check.cacheMs) {
      const problem = check.run().then(
        () => null,
        (error: unknown) => `${check.setting}: ${(error as Error).message}`,
      );
      check.last = { at: now, problem };
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(
        () => resolve(`${check.setting}: no answer within ${timeoutMs / 1000} s.`),
        timeoutMs,
      );
    });
    const problem = await Promise.race([check.last.problem, late]).finally(() => clearTimeout(timer));
    if (problem !== check.logged) {
      if (problem) app.log.warn(`Not ready: ${problem}`);
      else app.log.info(`${check.setting}: answers again.`);
      check.logged = problem;
    }
    if (problem) return problem;
  }
  return null;
}
