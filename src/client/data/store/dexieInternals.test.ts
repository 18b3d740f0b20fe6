import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { plainDexie } from '../../../../testkit/plainDexie';
import { dexieInternals, internalsFit, KNOWN_DEXIE_VERSION, setPlainDexie } from './dexieInternals';

afterEach(() => setPlainDexie(plainDexie));

describe("Dexie's internals, behind one adapter (dexieInternals.ts)", () => {
  it('were read from the Dexie the project installs', () => {
    expect(Dexie.semVer).toBe(KNOWN_DEXIE_VERSION);
  });

  it('I13: are not used on any other Dexie version, or when its zone is not where it was', () => {
    expect(internalsFit(KNOWN_DEXIE_VERSION, true)).toBe(true);
    for (const version of ['4.4.8', '4.5.0', '5.0.0', '4.0.7', undefined])
      expect(internalsFit(version, true)).toBe(false);
    expect(internalsFit(KNOWN_DEXIE_VERSION, false)).toBe(false);
  });

  it('I13: are not used in plain-Dexie mode', () => {
    setPlainDexie(true);
    expect(dexieInternals()).toBeNull();
    setPlainDexie(false);
    expect(dexieInternals()).not.toBeNull();
  });
});
