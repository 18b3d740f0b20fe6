import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { buildApp } from '../app';
import type { Database } from '../db/client';
import { OPENAPI_URL } from './plugin';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));
const CONFIG = fileURLToPath(new URL('./redocly.yaml', import.meta.url));

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** Runs Redocly CLI's `lint` on a document, offline, and answers its report. */
async function lint(document: string): Promise<LintReport> {
  const folder = await mkdtemp(join(tmpdir(), 'outpost-openapi-'));
  try {
    const file = join(folder, 'openapi.json');
    await writeFile(file, document);
    const env = {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    };
    const args = [CLI, 'lint', file, '--config', CONFIG, '--format=json'];
    // It exits 1 when it finds an error; the report on stdout says what either way.
    const output = await run(process.execPath, args, { env, maxBuffer: 32 * 1024 * 1024 }).catch(
      (error: { stdout?: string; stderr?: string }) => {
        if (!error.stdout) throw new Error(`redocly lint failed: ${error.stderr}`);
        return { stdout: error.stdout };
      },
    );
    return JSON.parse(output.stdout) as LintReport;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe.each(testEngines())('the OpenAPI document under a standard linter (%s)', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    // As a deployment serves it: `servers` is PUBLIC_URL (a localhost one is rightly flagged).
    app = await buildApp({
      database,
      config: { publicUrl: { origin: 'https://outpost.test', host: 'outpost.test' } },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('lints clean with Redocly’s recommended rules as errors: no error and no warning', {
    timeout: 120_000,
  }, async () => {
    const response = await app.inject({ url: OPENAPI_URL });
    expect(response.statusCode).toBe(200);
    const report = await lint(response.body);
    const problems = report.problems.map(
      (p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('is a linter that finds what the document once had: no servers, no operationId, no 4XX', {
    timeout: 120_000,
  }, async () => {
    const document = JSON.parse((await app.inject({ url: OPENAPI_URL })).body) as {
      servers?: unknown;
      paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>;
    };
    delete document.servers;
    const health = document.paths['/api/health']!.get!;
    delete health.operationId;
    health.responses = Object.fromEntries(
      Object.entries(health.responses).filter(([status]) => !status.startsWith('4')),
    );
    const rules = new Set((await lint(JSON.stringify(document))).problems.map((p) => p.ruleId));
    expect(rules).toEqual(new Set(['no-empty-servers', 'operation-operationId', 'operation-4xx-response']));
  });
});
