import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/** A package's CLI from node_modules/.bin, so scripts work without npm putting it on PATH. */
export const bin = (name: string) => path.join(repoRoot, 'node_modules', '.bin', name);
