import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ATTACHMENT_NAME_MAX,
  cleanFileName,
  extensionOf,
  formatBytes,
  isImageType,
  middleCut,
  opensInline,
  tooLargeMessage,
} from './attachments';

describe('which files open in place', () => {
  it('opens images, PDFs and plain text inline, whatever the parameters', () => {
    for (const type of [
      'image/png',
      'image/jpeg',
      'application/pdf',
      'text/plain; charset=utf-8',
      'IMAGE/WEBP',
    ])
      expect(opensInline(type)).toBe(true);
  });

  it('downloads HTML, SVG, scripts and anything unknown', () => {
    for (const type of [
      'text/html',
      'image/svg+xml',
      'application/javascript',
      'text/xml',
      'application/octet-stream',
      '',
    ])
      expect(opensInline(type)).toBe(false);
  });

  it('makes thumbnails of raster images only', () => {
    expect(isImageType('image/png')).toBe(true);
    expect(isImageType('image/jpeg')).toBe(true);
    expect(isImageType('image/svg+xml')).toBe(false);
    expect(isImageType('application/pdf')).toBe(false);
  });
});

describe('a file card names its file', () => {
  it('cuts a long name in the middle and keeps its extension', () => {
    expect(middleCut('Quarterly-revenue-report-final.pdf', 24)).toMatch(/^Quarterly.*….*\.pdf$/);
    expect([...middleCut('Quarterly-revenue-report-final.pdf', 24)]).toHaveLength(24);
  });

  it('leaves a name that fits as it is', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (name) => {
        expect(middleCut(name, 24)).toBe(name);
      }),
    );
  });

  it('never makes a name longer than asked, for any name', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 300 }),
        fc.integer({ min: 8, max: 80 }),
        (name, max) => {
          expect([...middleCut(name, max)].length).toBeLessThanOrEqual(max);
        },
      ),
    );
  });

  it('shows the extension in capitals, or nothing', () => {
    expect(extensionOf('gate.JPG')).toBe('JPG');
    expect(extensionOf('notes')).toBe('');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf('archive.tar.gz')).toBe('GZ');
  });

  it('says sizes in bytes, KB and MB', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(12)).toBe('12 bytes');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(2.4 * 1024 * 1024)).toBe('2.4 MB');
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
  });

  it('names the limit in the message of a file too large', () => {
    expect(tooLargeMessage(25 * 1024 * 1024)).toBe('The file is larger than the limit of 25 MB.');
  });
});

describe('a file name a client sends', () => {
  it('keeps no path, no control character and no quote', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\me\\quote.pdf')).toBe('quote.pdf');
    expect(cleanFileName('bad\r\nX-Header: 1.txt')).toBe('badX-Header: 1.txt');
    expect(cleanFileName('say "hi".txt')).toBe('say hi.txt');
    expect(cleanFileName('..')).toBe('file');
    expect(cleanFileName('')).toBe('file');
  });

  it('keeps a long name to the limit with its extension', () => {
    const cleaned = cleanFileName(`${'a'.repeat(400)}.pdf`);
    expect([...cleaned]).toHaveLength(ATTACHMENT_NAME_MAX);
    expect(cleaned.endsWith('.pdf')).toBe(true);
  });

  it('cleaning twice changes nothing, for any name', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (raw) => {
        const once = cleanFileName(raw);
        expect(cleanFileName(once)).toBe(once);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: what must never be left
        expect(once).not.toMatch(/[\u0000-\u001f\u007f"/\\]/);
        expect([...once].length).toBeLessThanOrEqual(ATTACHMENT_NAME_MAX);
      }),
    );
  });
});
