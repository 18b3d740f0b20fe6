/** The contacts import (papaparse and the phone rules load with it, not with the first screen). */
import type { ContactCandidate } from '../../../shared/csv';
import { contactsFromCsv, importContacts, pickPhoneContacts } from '../contacts/contactsImport';
import { defineCommands } from './map';

export const commands = defineCommands({
  'contacts.pickFromPhone': (_c, nav?: unknown) => pickPhoneContacts(nav),
  'contacts.fromCsv': async (_c, text: string) => contactsFromCsv(text),
  'contacts.import': (c, candidates: readonly ContactCandidate[]) =>
    importContacts(c.api, c.db, c.viewer().userId, candidates),
  /** Refreshes the device's copy of the mutual contacts (the assignee pickers read it). */
  'contacts.refreshMutuals': (c) => c.mutuals.refresh(),
});
