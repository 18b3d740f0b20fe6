import Papa from 'papaparse';
import { isPhone } from './phone';

export const CSV_ACCEPT = ['.csv', '.txt'] as const;
export const CONTACT_PHONE_MIN_DIGITS = 10;

export interface ContactCandidate {
  name?: string;
  /** Digits only. */
  phone: string;
  isValid: boolean;
}

/** Whether the file name has one of the accepted CSV extensions. */
export function isAcceptedContactsFile(fileName: string): boolean {
  const lower = fileName.toLowerCase();
  return CSV_ACCEPT.some((ext) => lower.endsWith(ext));
}

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** The largest contacts file read (a phone book of many thousands of lines is far smaller). */
export const CONTACTS_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** MIME types a browser gives a CSV or text file (Windows calls .csv an Excel file); empty is unknown. */
const TEXT_MIME = /^(text\/.*|application\/(csv|x-csv|vnd\.ms-excel|octet-stream))$/i;

/**
 * Why a picked file cannot be a contacts list, or null when it may be: another extension than .csv or
 * .txt, a MIME type that is not text, too large, or bytes that are not text (a NUL, or control
 * characters that text never holds). The bytes are the file's start (or all of it).
 */
export function contactsFileProblem(file: {
  name: string;
  type?: string;
  size: number;
  bytes: Uint8Array;
}): string | null {
  const notText = `“${file.name}” is not a CSV or text file. Choose a .csv or .txt file with names and phone numbers.`;
  if (/\.[^./\\]+$/.test(file.name) && !isAcceptedContactsFile(file.name)) return notText;
  if (file.type && !TEXT_MIME.test(file.type)) return notText;
  if (file.size > CONTACTS_FILE_MAX_BYTES)
    return `“${file.name}” is too large: contacts files are at most 5 MB.`;
  let control = 0;
  for (const byte of file.bytes) {
    if (byte === 0) return notText;
    // Tab, line feed, form feed and carriage return are text; other C0 controls are not.
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) control += 1;
  }
  if (control > 0 && control * 100 > file.bytes.length) return notText;
  return null;
}

/** A line of the file that gave no contact, with why. */
export interface SkippedLine {
  /** 1-based line number in the file. */
  line: number;
  /** The line as written (shortened when long). */
  text: string;
  reason: string;
}

export interface ParsedContacts {
  candidates: ContactCandidate[];
  skipped: SkippedLine[];
}

function fieldsOf(row: readonly string[]): string[] {
  // Papaparse picks one delimiter per line; the spec allows either.
  return row
    .flatMap((f) => f.split(/[;,]/))
    .map((f) => f.replace(/["']/g, '').trim())
    .filter((f) => f !== '');
}

/** The fields of one line: papaparse for quoted fields; an unbalanced quote stays on its own line. */
function lineFields(line: string): string[] {
  const parsed = Papa.parse<string[]>(line, { delimitersToGuess: [',', ';'] });
  const row = parsed.data[0];
  if (parsed.errors.length > 0 || !Array.isArray(row)) return fieldsOf([line]);
  return fieldsOf(row);
}

const shorten = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/**
 * Contacts from CSV text, line by line (a quote is never carried over to the next line, so an
 * unclosed one cannot swallow the rows after it): a header line is skipped when it mentions phone or
 * name; the phone is the first field with 10 or more digits and must be a phone number
 * (libphonenumber-js, as the server checks it); the name is the first field that is not numeric.
 * Every non-empty line that gives no contact is listed with its reason; a repeated phone too.
 */
export function parseContactsFile(text: string): ParsedContacts {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const candidates: ContactCandidate[] = [];
  const skipped: SkippedLine[] = [];
  const seen = new Map<string, number>();
  let first = true;
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const fields = lineFields(raw);
    const isFirst = first;
    first = false;
    if (isFirst && /phone|name/i.test(fields.join(','))) {
      skipped.push({ line, text: shorten(raw.trim()), reason: 'Column headings' });
      return;
    }
    const phoneField = fields.find((f) => digitsOf(f).length >= CONTACT_PHONE_MIN_DIGITS);
    if (!phoneField) {
      skipped.push({ line, text: shorten(raw.trim()), reason: 'No phone number (10 or more digits)' });
      return;
    }
    const phone = digitsOf(phoneField);
    if (!isPhone(phone)) {
      skipped.push({
        line,
        text: shorten(raw.trim()),
        reason: `“${shorten(phoneField)}” is not a phone number`,
      });
      return;
    }
    const earlier = seen.get(phone);
    if (earlier !== undefined) {
      skipped.push({ line, text: shorten(raw.trim()), reason: `Same number as line ${earlier}` });
      return;
    }
    seen.set(phone, line);
    const nameField = fields.find((f) => f !== phoneField && !/^[\d\s()+\-.]+$/.test(f));
    const candidate: ContactCandidate = { phone, isValid: true };
    if (nameField) candidate.name = nameField;
    candidates.push(candidate);
  });
  return { candidates, skipped };
}

/** The contacts of CSV text (see parseContactsFile; the skipped lines are left out). */
export function parseContactsCsv(text: string): ContactCandidate[] {
  return parseContactsFile(text).candidates;
}

/** The phones to send: valid candidates only, each once. */
export function phonesToSend(candidates: readonly ContactCandidate[]): string[] {
  return [...new Set(candidates.filter((c) => c.isValid).map((c) => c.phone))];
}

/** A contact picked from the phone: valid only when its first number has at least 10 characters. */
export function candidateFromPicked(contact: {
  name?: readonly string[];
  tel?: readonly string[];
}): ContactCandidate {
  const first = contact.tel?.[0] ?? '';
  const candidate: ContactCandidate = {
    phone: digitsOf(first),
    isValid: first.length >= CONTACT_PHONE_MIN_DIGITS,
  };
  const name = contact.name?.[0]?.trim();
  if (name) candidate.name = name;
  return candidate;
}
