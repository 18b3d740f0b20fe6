/** The Contact Picker API's one method this app uses (Chrome on Android; absent on desktops and iOS). */
export interface ContactsManagerLike {
  select(props: string[], options?: { multiple?: boolean }): Promise<{ name?: string[]; tel?: string[] }[]>;
}

/**
 * Whether the Contact Picker API is present (`navigator.contacts` with `select`). Tiny and free of
 * imports, so screens can hide 'Import from Phone' without loading the import code.
 */
export function phoneContactsSupported(nav: unknown = globalThis.navigator): boolean {
  const contacts = (nav as { contacts?: ContactsManagerLike } | undefined)?.contacts;
  return !!contacts && typeof contacts.select === 'function';
}
