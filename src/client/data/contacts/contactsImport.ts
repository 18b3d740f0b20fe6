import {
  type ContactCandidate,
  candidateFromPicked,
  parseContactsCsv,
  phonesToSend,
} from '../../../shared/csv';
import { CONTACTS_PER_REQUEST } from '../../../shared/item';
import type { ToastInput } from '../../stores/toastStore';
import { type ApiClient, ApiError } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import { type ContactsManagerLike, phoneContactsSupported } from './contactPicker';

export const CONTACT_TEXTS = {
  noneFound: {
    title: 'No valid contacts found',
    description: 'Please ensure your CSV contains phone numbers',
  },
  notSupported: {
    title: 'Not supported',
    description: 'Contact import is not supported on this device. Try CSV import instead.',
  },
  cancelled: { title: 'Import cancelled', description: 'Contact import was cancelled or failed' },
  failed: { title: 'Import failed', description: 'Failed to import contacts. Please try again.' },
  imported: (count: number) => ({
    title: 'Contacts imported',
    description: `Successfully imported ${count} contacts`,
  }),
} as const;

export class ContactImportError extends Error {
  readonly toast: ToastInput;
  constructor(toast: ToastInput) {
    super(toast.description ?? toast.title);
    this.name = 'ContactImportError';
    this.toast = toast;
  }
}

export { phoneContactsSupported };

/** Candidates from the phone's Contact Picker; 'Not supported' without it, 'Import cancelled' on cancel. */
export async function pickPhoneContacts(nav: unknown = globalThis.navigator): Promise<ContactCandidate[]> {
  if (!phoneContactsSupported(nav)) throw new ContactImportError(CONTACT_TEXTS.notSupported);
  const contacts = (nav as { contacts: ContactsManagerLike }).contacts;
  try {
    const picked = await contacts.select(['name', 'tel'], { multiple: true });
    return picked.map(candidateFromPicked);
  } catch {
    throw new ContactImportError(CONTACT_TEXTS.cancelled);
  }
}

/** Candidates from a CSV file's text; 'No valid contacts found' when none has a phone. */
export function contactsFromCsv(text: string): ContactCandidate[] {
  const found = parseContactsCsv(text);
  if (found.length === 0) throw new ContactImportError(CONTACT_TEXTS.noneFound);
  return found;
}

/** Sends the valid phones to the server, keeps them locally, and answers the toast to show. */
export async function importContacts(
  api: ApiClient,
  db: OutpostDb,
  userId: number,
  candidates: readonly ContactCandidate[],
): Promise<{ count: number; toast: ToastInput }> {
  const phones = phonesToSend(candidates);
  try {
    // The server takes a bounded number per request; a big address book goes up in several.
    let count = 0;
    for (let start = 0; start < phones.length || start === 0; start += CONTACTS_PER_REQUEST) {
      const contacts = phones.slice(start, start + CONTACTS_PER_REQUEST);
      const { data } = await api.post<{ count: number }>('/contacts/sync', { contacts });
      count += data.count;
    }
    const names = new Map(candidates.map((c) => [c.phone, c.name ?? null]));
    await db.transaction('rw', db.contacts, async () => {
      const known = new Set(
        (await db.contacts.where('user_id').equals(userId).toArray()).map((c) => c.contact_phone),
      );
      await db.contacts.bulkAdd(
        phones
          .filter((p) => !known.has(p))
          .map((p) => ({ user_id: userId, contact_phone: p, name: names.get(p) ?? null })),
      );
    });
    return { count, toast: CONTACT_TEXTS.imported(count) };
  } catch (error) {
    // Rate limited: trying again at once cannot help, so say so with the server's wait.
    if (error instanceof ApiError && error.status === 429) {
      throw new ContactImportError({
        title: 'Slow down',
        description: error.message,
        variant: 'destructive',
      });
    }
    throw new ContactImportError({ ...CONTACT_TEXTS.failed, variant: 'destructive' });
  }
}
