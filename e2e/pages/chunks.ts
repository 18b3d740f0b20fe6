import { readFileSync } from 'node:fs';
import { clientManifest } from '../../scripts/lib/clientBuild';

/**
 * The built client's chunks are named by hash alone (vite.config.ts): a spec that slows or cuts one
 * module's download finds its file in the build's manifest, by the module's source path.
 */
let manifest: Record<string, { file: string }> | null = null;

/** A pattern for the URL of the chunk that `source` (e.g. 'src/client/app/ToastRegion.tsx') starts. */
export function chunkUrl(source: string): RegExp {
  manifest ??= JSON.parse(readFileSync(clientManifest, 'utf8')) as Record<string, { file: string }>;
  const entry = manifest[source];
  if (!entry) throw new Error(`No chunk starts at ${source} in ${clientManifest}`);
  return new RegExp(`/${entry.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
