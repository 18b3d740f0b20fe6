import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { toast, useDoor } from '../app/door';
import { Button, Dialog, DialogContent, Input, Skeleton } from '../components/ui';
import { ConfirmDialog } from '../components/ui/AlertDialog';

const addressKey = (campaignId: number) => ['inbound-address', campaignId] as const;

/** Why the address could not be read or changed, in words for the person. */
function addressTrouble(error: unknown): string {
  const status = (error as { status?: number } | null)?.status;
  if (status === 0) return 'You are offline. The address shows when the connection returns.';
  if (status === 404)
    return 'This server does not take tasks by email. Ask whoever runs it to turn incoming mail on.';
  if (status === 403) return 'Only the campaign’s owner and editors can add tasks by email.';
  return 'Could not get the address. Please try again.';
}

/**
 * 'Add tasks by email…' (ARCHITECTURE §4 'Email', In): the campaign's secret address with Copy, and
 * 'New address' behind a question, as the old address stops working at once.
 */
export function InboundAddressDialog({
  campaign,
  open,
  onOpenChange,
}: {
  campaign: { id: number; title: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { send } = useDoor();
  const queries = useQueryClient();
  const fieldId = useId();
  const [asking, setAsking] = useState(false);
  const [rotating, setRotating] = useState(false);
  const address = useQuery({
    queryKey: addressKey(campaign.id),
    queryFn: () => send('email.inboundAddress', campaign.id),
    enabled: open,
    staleTime: 0,
    retry: false,
  });

  const copy = async () => {
    if (!address.data) return;
    try {
      await navigator.clipboard.writeText(address.data);
      toast({ title: 'Address copied', description: 'Forward mail to it, or add it as a contact.' });
    } catch {
      // No clipboard (an insecure page, a refused permission): the field is selected to copy by hand.
      (document.getElementById(fieldId) as HTMLInputElement | null)?.select();
    }
  };

  const rotate = async () => {
    setRotating(true);
    try {
      const next = await send('email.rotateInboundAddress', campaign.id);
      queries.setQueryData(addressKey(campaign.id), next);
      toast({ title: 'New address made', description: 'Mail to the old address is refused from now on.' });
    } catch (error) {
      toast({
        title: 'Could not make a new address',
        description: addressTrouble(error),
        variant: 'destructive',
      });
    } finally {
      setRotating(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent
          title="Add tasks by email"
          description={`Mail sent to this address becomes a task in “${campaign.title}”.`}
        >
          <div className="flex flex-col gap-4">
            {address.data ? (
              <div className="flex flex-col gap-2">
                <label htmlFor={fieldId} className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
                  The campaign’s address
                </label>
                <div className="flex flex-col gap-2 sm:flex-row">
                  <Input
                    id={fieldId}
                    readOnly
                    value={address.data}
                    onFocus={(event) => event.currentTarget.select()}
                    className="font-mono text-xs md:text-xs"
                    data-testid="inbound-address"
                  />
                  <Button onClick={() => void copy()} className="shrink-0">
                    <Copy aria-hidden />
                    Copy
                  </Button>
                </div>
              </div>
            ) : address.isError ? (
              <div className="flex flex-col items-start gap-2">
                <p role="alert" className="text-sm text-zinc-700 dark:text-zinc-300">
                  {addressTrouble(address.error)}
                </p>
                {(address.error as { status?: number }).status === 404 ? null : (
                  <Button variant="outline" size="sm" onClick={() => void address.refetch()}>
                    Try again
                  </Button>
                )}
              </div>
            ) : (
              <div role="status" aria-label="Getting the address…" className="flex flex-col gap-2">
                <Skeleton className="h-5 w-40" />
                <Skeleton className="h-10 w-full" />
              </div>
            )}
            <ul className="flex list-disc flex-col gap-1 pl-5 text-sm text-zinc-600 dark:text-zinc-400">
              <li>
                The subject becomes the task’s title, the text its description, attached files its files.
              </li>
              <li>
                Only mail from members’ verified addresses is taken (Preferences › Email); anything else is
                refused.
              </li>
              <li>Keep the address to the campaign’s people: anyone who has it can try to send to it.</li>
            </ul>
            {address.data ? (
              <Button
                variant="ghost"
                size="sm"
                disabled={rotating}
                onClick={() => setAsking(true)}
                className="self-start"
              >
                <RefreshCw
                  aria-hidden
                  className={rotating ? 'animate-spin motion-reduce:animate-none' : undefined}
                />
                {rotating ? 'Making a new address…' : 'New address…'}
              </Button>
            ) : null}
          </div>
          <ConfirmDialog
            open={asking}
            onOpenChange={setAsking}
            title="Make a new address?"
            description="The address in use stops working at once: mail sent to it is refused. Anyone forwarding to it needs the new one."
            confirmLabel="Make a new address"
            tone="danger"
            onConfirm={() => void rotate()}
          />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
