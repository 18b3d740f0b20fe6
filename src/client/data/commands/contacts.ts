/** The contacts import (papaparse and the phone rules load with it, not with the first screen). */
import type { ContactCandidate } from '../../../shared/csv';
import { contactsFromCsv, importContacts, pickPhoneContacts } from '../contacts/contactsImport';
import type { ApiClient } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import type { Viewer } from '../store/types';
import { defineCommands } from './map';

/** The contacts import asks the server and stores on the device; the refresh is the mutuals service's. */
export interface ContactsContext {
  api: ApiClient;
  db: OutpostDb;
  viewer: () => Viewer;
  /** Refreshes the stored mutual contacts now (never throws). */
  refreshMutuals: () => Promise<void>;
}

export const commands = defineCommands<ContactsContext>()({
  'contacts.pickFromPhone': (_c, nav?: unknown) => pickPhoneContacts(nav),
  'contacts.fromCsv': async (_c, text: string) => contactsFromCsv(text),
  'contacts.import': (c, candidates: readonly ContactCandidate[]) =>
    importContacts(c.api, c.db, c.viewer().userId, candidates),
  /** Refreshes the device's copy of the mutual contacts (the assignee pickers read it). */
  'contacts.refreshMutuals': (c) => c.refreshMutuals(),
});
