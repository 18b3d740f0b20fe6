import { strFromU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  createExportZip,
  EXPORT_JSON_ENTRY,
  exportFilePath,
  isZip,
  readExportZip,
  zipEntryBytes,
} from './exportZip';
import { exportDocument, parseImport } from './importExport';

const UUID_A = '11111111-1111-4111-8111-111111111111';
const UUID_B = '22222222-2222-4222-8222-222222222222';
const ITEM = '33333333-3333-4333-8333-333333333333';

/** A whole export zip as one array, written as the device writes it. */
function writeZip(
  files: { path: string; bytes: Uint8Array }[],
  json: string,
  at = new Date('2030-05-01T09:00:00Z'),
) {
  const chunks: Uint8Array[] = [];
  const zip = createExportZip((chunk) => chunks.push(chunk), at);
  for (const f of files) zip.addFile(f.path, f.bytes);
  zip.end(json);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at2 = 0;
  for (const c of chunks) {
    out.set(c, at2);
    at2 += c.length;
  }
  return out;
}

describe('the export zip', () => {
  it('holds outpost.json and each file at files/<uuid>-<name>, bytes as they were', () => {
    const photo = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]);
    const text = new TextEncoder().encode('Quote: 1,200 EUR');
    const json = JSON.stringify({ format: 'outpost', items: [] });
    const bytes = writeZip(
      [
        { path: exportFilePath(UUID_A, 'gate.jpg'), bytes: photo },
        { path: exportFilePath(UUID_B, 'quote.txt'), bytes: text },
      ],
      json,
    );
    expect(isZip(bytes)).toBe(true);
    const all = unzipSync(bytes);
    expect(Object.keys(all).sort()).toEqual(
      [`files/${UUID_A}-gate.jpg`, `files/${UUID_B}-quote.txt`, EXPORT_JSON_ENTRY].sort(),
    );
    expect(all[`files/${UUID_A}-gate.jpg`]).toEqual(photo);
    expect(strFromU8(all[`files/${UUID_B}-quote.txt`]!)).toBe('Quote: 1,200 EUR');
    expect(strFromU8(all[EXPORT_JSON_ENTRY]!)).toBe(json);
  });

  it('names a file by its uuid and a name any unzipper can write: no folders, no characters a file system refuses', () => {
    expect(exportFilePath(UUID_A, 'report.pdf')).toBe(`files/${UUID_A}-report.pdf`);
    expect(exportFilePath(UUID_A, '../../etc/passwd')).toBe(`files/${UUID_A}-__.._etc_passwd`);
    expect(exportFilePath(UUID_A, 'a:b*c?"d"<e>|f\\g.txt')).toBe(`files/${UUID_A}-a_b_c__d__e__f_g.txt`);
    expect(exportFilePath(UUID_A, 'Übersicht – März.pdf')).toBe(`files/${UUID_A}-Übersicht – März.pdf`);
    expect(exportFilePath(UUID_A, '')).toBe(`files/${UUID_A}-file`);
    expect(exportFilePath(UUID_A, 'x'.repeat(500)).length).toBe('files/'.length + 36 + 1 + 200);
  });

  it('reads back the document and the names of the entries, and one entry at a time', () => {
    const json = '{"format":"outpost","version":1,"items":[]}';
    const path = exportFilePath(UUID_A, 'notes.txt');
    const bytes = writeZip([{ path, bytes: new TextEncoder().encode('hello') }], json);
    const read = readExportZip(bytes);
    expect(read.json).toBe(json);
    expect([...read.entries]).toEqual([
      [path, 5],
      [EXPORT_JSON_ENTRY, json.length],
    ]);
    expect(strFromU8(zipEntryBytes(bytes, path)!)).toBe('hello');
    expect(zipEntryBytes(bytes, 'files/none')).toBeNull();
  });

  it('a zip without outpost.json reads as no document; bytes that are no zip are not taken for one', () => {
    expect(readExportZip(zipSync({ 'other.txt': new Uint8Array([1]) })).json).toBeNull();
    expect(isZip(new TextEncoder().encode('{"format":"outpost"}'))).toBe(false);
  });

  it('an export lists each item’s files (oldest first) and an import reads them back with their paths', () => {
    const doc = exportDocument(
      [
        {
          id: 1,
          uuid: ITEM,
          type: 'todo',
          title: 'Fix the gate',
          description: null,
          status: 'pending',
          parent_id: null,
          assigned_to: null,
          due_date: null,
          end_date: null,
          created_at: '2030-05-01T08:00:00.000Z',
          updated_at: '2030-05-01T08:00:00.000Z',
          completed_at: null,
          attachments: [
            {
              uuid: UUID_B,
              name: 'later.pdf',
              type: 'application/pdf',
              size: 4,
              sha256: null,
              path: null,
              created_at: '2030-05-01T10:00:00.000Z',
            },
            {
              uuid: UUID_A,
              name: 'gate.jpg',
              type: 'image/jpeg',
              size: 6,
              sha256: 'a'.repeat(64),
              path: exportFilePath(UUID_A, 'gate.jpg'),
              created_at: '2030-05-01T09:00:00.000Z',
            },
          ],
        },
      ],
      null,
      new Date('2030-05-02T00:00:00Z'),
    );
    expect(doc.items[0]?.attachments).toEqual([
      {
        uuid: UUID_A,
        name: 'gate.jpg',
        type: 'image/jpeg',
        size: 6,
        sha256: 'a'.repeat(64),
        path: `files/${UUID_A}-gate.jpg`,
      },
      { uuid: UUID_B, name: 'later.pdf', type: 'application/pdf', size: 4, sha256: null, path: null },
    ]);
    const plan = parseImport(JSON.stringify(doc), { fileName: 'outpost.json', userId: 0 });
    expect(plan.attachments).toEqual([
      {
        uuid: UUID_A,
        item_uuid: ITEM,
        name: 'gate.jpg',
        type: 'image/jpeg',
        size: 6,
        sha256: 'a'.repeat(64),
        path: `files/${UUID_A}-gate.jpg`,
      },
      {
        uuid: UUID_B,
        item_uuid: ITEM,
        name: 'later.pdf',
        type: 'application/pdf',
        size: 4,
        sha256: null,
        path: null,
      },
    ]);
  });

  it('an import leaves out a file it cannot read and says so', () => {
    const doc = {
      format: 'outpost',
      version: 1,
      user: null,
      items: [
        {
          uuid: ITEM,
          type: 'todo',
          title: 'T',
          status: 'pending',
          attachments: [
            { uuid: 'nope', name: 'x' },
            { uuid: UUID_A, name: 'ok.txt', size: 1 },
          ],
        },
      ],
    };
    const plan = parseImport(JSON.stringify(doc), { fileName: 'outpost.json', userId: 0 });
    expect(plan.attachments.map((f) => f.name)).toEqual(['ok.txt']);
    expect(plan.warnings.map((w) => w.reason)).toContain('1 file could not be read: left out');
  });
});
