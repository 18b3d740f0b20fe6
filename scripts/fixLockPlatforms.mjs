// Adds lock entries for optional platform packages that the lock is missing, at the pinned versions,
// with os/cpu/libc inferred from the package name, so `npm ci` validates and skips them on this platform.
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2];
const lock = JSON.parse(readFileSync(file, 'utf8'));
const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'win32',
  'openbsd',
  'openharmony',
  'sunos',
  'aix',
  'netbsd',
];
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  arm: 'arm',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
  wasm32: 'wasm32',
};
const added = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  if (!entry.optionalDependencies) continue;
  const base = path === '' ? '' : `${path}/`;
  for (const [name, spec] of Object.entries(entry.optionalDependencies)) {
    const candidates = [`${base}node_modules/${name}`, `node_modules/${name}`];
    if (candidates.some((c) => lock.packages[c])) continue;
    if (!/^\d+\.\d+\.\d+/.test(spec)) {
      console.warn('not exact', name, spec);
      continue;
    }
    const tokens = name.split('/').pop().split('-');
    const os = tokens.find((t) => OS.includes(t));
    let cpu = tokens.map((t) => CPU[t]).find(Boolean);
    if (tokens.includes('gnueabihf') || tokens.includes('musleabihf') || tokens.includes('eabi')) cpu = 'arm';
    const libc =
      os !== 'linux'
        ? undefined
        : tokens.includes('musl') || tokens.includes('musleabihf')
          ? 'musl'
          : tokens.includes('gnu') || tokens.includes('gnueabihf')
            ? 'glibc'
            : undefined;
    if (!cpu) {
      console.warn('no cpu', name);
      continue;
    }
    const parent = lock.packages[path];
    const e = { version: spec, cpu: [cpu] };
    if (parent.dev) e.dev = true;
    if (libc) e.libc = [libc];
    e.optional = true;
    if (os) e.os = [os];
    lock.packages[`node_modules/${name}`] = e;
    added.push(`${name}@${spec} os=${os} cpu=${cpu} libc=${libc ?? '-'}`);
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.join('\n'));
