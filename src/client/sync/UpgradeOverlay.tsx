import { CircleCheck, CloudOff, PartyPopper, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useStore } from 'zustand';
import { useDoor } from '../app/door';
import { Button, Dialog, DialogContent, Progress } from '../components/ui';
import { cn } from '../components/ui/cn';
import { uiStore, useUi } from '../stores/uiStore';
import { UPGRADE_CLOSE_DELAY_MS, upgradeView } from './upgradeState';

/**
 * `wanted`, from the frame after it turned true: a dialog mounting forces the page's style and layout
 * at once (its focus, its scroll lock, its enter animation), and mounted with the screen behind it
 * held that screen's first paint (a sign-in's Home and its first rows, scale --timeline).
 */
function useAfterPaint(wanted: boolean): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!wanted) return setShown(false);
    let after: MessageChannel | null = null;
    const frame = requestAnimationFrame(() => {
      after = new MessageChannel();
      after.port1.onmessage = () => setShown(true);
      after.port2.postMessage(null);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (after) after.port1.onmessage = null;
    };
  }, [wanted]);
  return wanted && shown;
}

/**
 * After a guest signs in: a celebratory card that carries the Upgrade dialog ('Upgrading Your
 * Account') while the guest's items go up, with real progress (a batch at a time, U3). Also shown on
 * its own when an interrupted upload resumes after a reload. It can be dismissed at any time: the
 * upload goes on in the background and a small badge keeps counting, with a way back to the dialog.
 */
export function UpgradeOverlay() {
  const { syncStatus, send } = useDoor();
  const celebration = useUi((s) => s.celebration);
  const progress = useStore(syncStatus, (s) => s.upgrade);
  const online = useStore(syncStatus, (s) => s.online);
  const [dismissed, setDismissed] = useState(false);

  // The tutorial is a modal of its own: signing in from it (a fresh device is a guest) must not stack
  // 'Upgrading Your Account' on top of it. The dialog waits until the tutorial has closed.
  const inTutorial = useLocation().pathname === '/onboarding';

  const resuming = !celebration && progress !== null && !progress.done && progress.total > 0;
  const open = useAfterPaint((celebration !== null || resuming) && !dismissed && !inTutorial);

  useEffect(() => {
    if (celebration) setDismissed(false);
  }, [celebration]);

  const close = useCallback(() => {
    uiStore.getState().endCelebration();
    setDismissed(true);
    void send('sync.clearFinishedUpgrade');
  }, [send]);

  const view = upgradeView(progress, online);
  const uploading = progress !== null && !progress.done && progress.total > 0;

  // Finished while dismissed: forget it, so a reload does not show it again.
  useEffect(() => {
    if (dismissed && progress?.done) void send('sync.clearFinishedUpgrade');
  }, [dismissed, progress?.done, send]);

  useEffect(() => {
    if (!open || view.phase !== 'complete') return;
    const timer = window.setTimeout(close, UPGRADE_CLOSE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [open, view.phase, close]);

  const complete = view.phase === 'complete';
  const title = complete
    ? `You're all set${celebration?.name ? `, ${celebration.name}` : ''}!`
    : 'Upgrading Your Account';

  const counted = progress
    ? `${Math.min(progress.sent, progress.total).toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')} items`
    : '';

  return (
    <>
      {dismissed && uploading ? (
        <div
          role="status"
          aria-live="polite"
          className="fixed bottom-[calc(4rem+env(safe-area-inset-bottom)+0.75rem)] left-4 z-30 md:bottom-4"
        >
          <button
            type="button"
            onClick={() => setDismissed(false)}
            className="inline-flex h-8 items-center gap-2 rounded-full border border-indigo-200 bg-white px-3 text-xs font-medium text-zinc-700 shadow-sm hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-indigo-900 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:bg-indigo-950"
            aria-label={`Moving your items to your account: ${counted}. Show progress`}
          >
            {online ? (
              <RefreshCw
                aria-hidden
                className="size-3.5 animate-spin text-indigo-600 motion-reduce:animate-none dark:text-indigo-400"
              />
            ) : (
              <CloudOff aria-hidden className="size-3.5 text-amber-600 dark:text-amber-400" />
            )}
            <span>Moving items · {counted}</span>
          </button>
        </div>
      ) : null}
      <Dialog open={open} onOpenChange={(o) => (o ? undefined : close())}>
        <DialogContent
          size="sm"
          title={title}
          description={
            complete
              ? 'Your account is ready. Your items now sync across your devices.'
              : 'Moving the items on this device into your new account.'
          }
        >
          <div className="flex flex-col items-center gap-4 text-center">
            <div
              aria-hidden
              className={cn(
                'relative flex size-16 items-center justify-center rounded-full',
                complete
                  ? 'bg-green-50 text-green-600 dark:bg-green-950 dark:text-green-400'
                  : view.phase === 'offline'
                    ? 'bg-amber-50 text-amber-600 dark:bg-amber-950 dark:text-amber-400'
                    : 'bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-400',
              )}
            >
              {complete ? (
                <CircleCheck className="size-8" />
              ) : view.phase === 'offline' ? (
                <CloudOff className="size-8" />
              ) : (
                <PartyPopper className="size-8 motion-safe:animate-[celebrate_900ms_ease-out]" />
              )}
            </div>
            <div className="w-full">
              <Progress value={view.percent} label="Upgrade progress" tone={complete ? 'green' : 'indigo'} />
              <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
                {view.message}
                {progress && progress.total > 0 && !complete ? (
                  <span className="block text-xs text-zinc-500 dark:text-zinc-500">
                    {Math.min(progress.sent, progress.total)} of {progress.total} items
                  </span>
                ) : null}
              </p>
            </div>
            {view.phase === 'offline' ? (
              <Button variant="outline" onClick={close}>
                Continue
              </Button>
            ) : !complete ? (
              <Button variant="outline" onClick={close}>
                Continue in background
              </Button>
            ) : null}
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}
