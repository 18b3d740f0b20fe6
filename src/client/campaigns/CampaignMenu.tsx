import { LayoutTemplate, Mail, MoreHorizontal } from 'lucide-react';
import { Suspense, useState } from 'react';
import { useSignedInUser } from '../app/door';
import {
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../components/ui';
import { useViewer } from '../data/live';
import { SaveTemplateDialog } from '../items/TemplateButton';
import { roleOf } from '../sharing/queries';
import { InboundAddressDialog } from './InboundAddressDialog';

/**
 * A campaign's menu in its page's header row: what acts on the campaign as a whole and needs the
 * server: 'Add tasks by email…' for its owner and editors, 'Save as template…' for anyone signed in, while online; with no
 * entry to offer (a guest, a viewer, offline, a campaign not yet synced) the menu is not shown.
 */
export function CampaignMenu({ campaign }: { campaign: { id: number; title: string } }) {
  const user = useSignedInUser();
  const { online } = useViewer();
  const [emailOpen, setEmailOpen] = useState(false);
  const [templateOpen, setTemplateOpen] = useState(false);
  // A viewer's campaign page has no control that acts on the campaign, this menu included: its
  // actions (an address that adds tasks, a template of its plan) are for the people who shape it.
  const shapes = user !== null && online && campaign.id > 0 && roleOf(campaign) !== 'viewer';
  const mayAddByEmail = shapes;
  // The server snapshots the campaign: signed in, online and synced.
  const maySaveTemplate = shapes;
  if (!mayAddByEmail && !maySaveTemplate && !emailOpen && !templateOpen) return null;
  return (
    <>
      {/* Not modal: a modal menu hides the page with aria-hidden while its links stay focusable (axe). */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" size="sm" aria-label={`More actions for ${campaign.title}`}>
            <MoreHorizontal aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          {mayAddByEmail ? (
            <DropdownMenuItem onSelect={() => setEmailOpen(true)}>
              <Mail aria-hidden />
              Add tasks by email…
            </DropdownMenuItem>
          ) : null}
          <DropdownMenuItem onSelect={() => setTemplateOpen(true)}>
            <LayoutTemplate aria-hidden />
            Save as template…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <InboundAddressDialog campaign={campaign} open={emailOpen} onOpenChange={setEmailOpen} />
      {templateOpen ? (
        <Suspense fallback={null}>
          <SaveTemplateDialog
            item={{ id: campaign.id, type: 'campaign', title: campaign.title }}
            open={templateOpen}
            onOpenChange={setTemplateOpen}
          />
        </Suspense>
      ) : null}
    </>
  );
}
