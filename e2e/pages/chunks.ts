import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/paths';

/**
 * The built client's chunks are named by hash alone (vite.config.ts): a spec that slows or cuts one
 * module's download finds its file in the build's manifest, by the module's source path.
 */
let manifest: Record<string, { file: string }> | null = null;

/** A pattern for the URL of the chunk that `source` (e.g. 'src/client/app/ToastRegion.tsx') starts. */
export function chunkUrl(source: string): RegExp {
  manifest ??= JSON.parse(
    readFileSync(path.join(repoRoot, 'dist/client/.vite/manifest.json'), 'utf8'),
  ) as Record<string, { file: string }>;
  const entry = manifest[source];
  if (!entry) throw new Error(`No chunk starts at ${source} in dist/client/.vite/manifest.json`);
  return new RegExp(`/${entry.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
