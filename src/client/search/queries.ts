/** The search dialog's search, through the one door (server when signed in and online, else the device). */
import { useCallback } from 'react';
import { useSend } from '../app/door';
import type { SearchHit } from '../data/commands/search';

export type { SearchHit };

/** Searches; `onFirstHits` gets the device's hits while the server's answer is on the way. */
export function useSearch(): (
  query: string,
  onFirstHits?: (hits: SearchHit[]) => void,
) => Promise<SearchHit[]> {
  const send = useSend();
  return useCallback(
    (query, onFirstHits) => send('search.run', onFirstHits ? { query, onFirstHits } : { query }),
    [send],
  );
}
