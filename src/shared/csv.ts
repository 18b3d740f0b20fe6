import Papa from 'papaparse';

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

function fieldsOf(row: readonly string[]): string[] {
  // Papaparse picks one delimiter per file; the spec allows either per line.
  return row
    .flatMap((f) => f.split(/[;,]/))
    .map((f) => f.replace(/["']/g, '').trim())
    .filter((f) => f !== '');
}

/**
 * Contacts from CSV text: a header line is skipped when it mentions phone or name; the phone is the
 * first field with 10 or more digits, the name the first field that is not numeric.
 */
export function parseContactsCsv(text: string): ContactCandidate[] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    delimitersToGuess: [',', ';'],
    skipEmptyLines: 'greedy',
  });
  const rows = parsed.data.filter((r): r is string[] => Array.isArray(r));
  const first = rows[0];
  if (first && /phone|name/i.test(first.join(','))) rows.shift();
  const out: ContactCandidate[] = [];
  for (const row of rows) {
    const fields = fieldsOf(row);
    const phoneField = fields.find((f) => digitsOf(f).length >= CONTACT_PHONE_MIN_DIGITS);
    if (!phoneField) continue;
    const nameField = fields.find((f) => f !== phoneField && !/^[\d\s()+\-.]+$/.test(f));
    const candidate: ContactCandidate = { phone: digitsOf(phoneField), isValid: true };
    if (nameField) candidate.name = nameField;
    out.push(candidate);
  }
  return out;
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
