import { cn, focusRing } from '../components/ui/cn';

/** One line of Preferences' index: the section's heading id and the words that name it. */
export interface IndexEntry {
  id: string;
  label: string;
  danger?: boolean;
}

/**
 * Preferences' sections in page order, the ones this person sees (a guest has no account sections).
 * The changes that could not be applied show only when there are some, so the index leaves them out.
 */
export function sectionIndex(signedIn: boolean): IndexEntry[] {
  const entries: (IndexEntry & { account?: boolean })[] = [
    { id: 'pref-name', label: 'Your name', account: true },
    { id: 'pref-phone', label: 'Phone', account: true },
    { id: 'pref-appearance', label: 'Appearance' },
    { id: 'pref-notifications', label: 'Notifications' },
    { id: 'pref-email', label: 'Email' },
    { id: 'pref-tutorial', label: 'Tutorial' },
    { id: 'pref-sync', label: 'Sync Settings', account: true },
    { id: 'pref-contacts', label: 'Contacts' },
    { id: 'pref-time', label: 'Time' },
    { id: 'pref-calendar', label: 'Calendar', account: true },
    { id: 'pref-devices', label: 'Devices', account: true },
    { id: 'pref-passkeys', label: 'Passkeys', account: true },
    { id: 'pref-api-tokens', label: 'API tokens' },
    { id: 'pref-webhooks', label: 'Webhooks', account: true },
    { id: 'pref-trash', label: 'Trash' },
    { id: 'pref-transfer', label: 'Export and import' },
    { id: 'pref-data', label: 'Data Management', danger: true },
  ];
  return entries.filter((e) => signedIn || !e.account).map(({ account: _account, ...entry }) => entry);
}

/**
 * The index at the top of Preferences: plain links to each section's heading, so Tab and Enter reach
 * any of them; a grid above the sections on phones and tablets, a column that stays in view beside
 * them on a desktop.
 */
export function SectionIndex({ entries }: { entries: readonly IndexEntry[] }) {
  return (
    <nav
      aria-labelledby="pref-index"
      className="rounded-xl border border-zinc-200 bg-white p-3 lg:sticky lg:top-20 lg:border-0 lg:bg-transparent lg:p-0 dark:border-zinc-800 dark:bg-zinc-900 lg:dark:bg-transparent"
    >
      <h2
        id="pref-index"
        className="px-2 pb-1 text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400"
      >
        On this page
      </h2>
      <ul className="grid grid-cols-2 gap-x-2 sm:grid-cols-3 lg:grid-cols-1">
        {entries.map((entry) => (
          <li key={entry.id}>
            <a
              href={`#${entry.id}`}
              className={cn(
                'block rounded-md px-2 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800',
                entry.danger
                  ? 'text-red-700 hover:text-red-800 dark:text-red-400 dark:hover:text-red-300'
                  : 'text-zinc-700 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-zinc-100',
                focusRing,
              )}
            >
              {entry.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
