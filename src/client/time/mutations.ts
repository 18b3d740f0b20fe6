import { useCallback } from 'react';
import { useSend, useToast } from '../app/door';

/** Why a time write failed, in words for the person. */
export function timeErrorText(error: unknown): string {
  return error instanceof Error ? error.message : 'The time entry could not be saved.';
}

/** Start and stop the viewer's timer; a failure is toasted. */
export function useTimer() {
  const send = useSend();
  const toast = useToast();
  const fail = useCallback(
    (error: unknown) => toast({ title: 'Timer', description: timeErrorText(error), variant: 'destructive' }),
    [toast],
  );
  const start = useCallback(
    (itemId: number) => send('time.start', { itemId }).then(() => undefined, fail),
    [send, fail],
  );
  const stop = useCallback(
    (uuid: string) => send('time.stop', { uuid }).then(() => undefined, fail),
    [send, fail],
  );
  return { start, stop };
}
