import { statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './paths';

export const clientDist = path.join(repoRoot, 'dist', 'client');
/** The build's manifest (which chunk holds which module), written beside the served folder (vite.config.ts). */
export const clientManifest = path.join(repoRoot, 'dist', 'client-manifest.json');
const builtIndex = path.join(clientDist, 'index.html');

/** Everything the client bundle is made from; public/ holds files Vite copies as they are. */
const inputs = ['src/client', 'src/shared', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];

/**
 * Newest modification time under `target`. Directories count too: deleting or renaming a file only
 * touches its directory.
 */
async function newestMtime(target: string): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(target);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(target);
  const times = await Promise.all(entries.map((entry) => newestMtime(path.join(target, entry))));
  return Math.max(info.mtimeMs, ...times);
}

/** Why the client needs building, or null when dist/client is newer than every input. */
export async function clientBuildStaleReason(): Promise<string | null> {
  let builtAt: number;
  try {
    builtAt = statSync(builtIndex).mtimeMs;
  } catch {
    return 'dist/client/index.html is missing';
  }
  const times = await Promise.all(inputs.map((input) => newestMtime(path.join(repoRoot, input))));
  const changed = inputs.filter((_, index) => (times[index] ?? 0) > builtAt);
  return changed.length > 0 ? `${changed.join(', ')} changed since the last build` : null;
}

/** Builds the client with Vite when it is missing or older than its sources. */
export async function ensureClientBuild(): Promise<void> {
  const reason = await clientBuildStaleReason();
  if (!reason) return;
  console.log(`Building the client (${reason})…`);
  // Vite sets NODE_ENV=production for the build; the server imported afterwards must see the
  // same NODE_ENV whether or not a build happened.
  const nodeEnv = process.env.NODE_ENV;
  try {
    const { build } = await import('vite');
    await build({ configFile: path.join(repoRoot, 'vite.config.ts'), root: repoRoot, logLevel: 'warn' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  console.log('Client built into dist/client.');
}
