import { pathToFileURL } from 'node:url';
import { ensureClientBuild } from './lib/clientBuild';
import { repoRoot } from './lib/paths';

try {
  await ensureClientBuild();
} catch (error) {
  // Serving an old bundle against newer server code would fail in confusing ways; stop instead.
  console.error('The client build failed; not starting the server.');
  console.error(error);
  process.exit(1);
}

// Imported by URL so this script does not depend on the server's types; the module starts listening
// as a side effect (PORT, DATA_DIR and the rest come from src/server/env.ts).
await import(pathToFileURL(`${repoRoot}/src/server/index.ts`).href);
