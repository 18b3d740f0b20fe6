import { BookOpen, Monitor, Moon, RefreshCw, RotateCcw, Sun, Timer, Trash2, Users } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { toast, useDoor, useSignedInUser } from '../app/door';
import { Button, RadioGroup, RadioOption } from '../components/ui';
import { Section } from '../components/ui/Section';
import { PushPreferences } from '../notifications/PushPreferences';
import { onboardingStore } from '../stores/onboardingStore';
import { connectionOf } from '../stores/syncStatusStore';
import { THEMES, type Theme, useTheme } from '../stores/themeStore';
import { ApiTokensSection } from './ApiTokensSection';
import { CalendarSection } from './CalendarSection';
import { DevicesSection } from './DevicesSection';
import { NameSection } from './NameSection';
import { PasskeysSection } from './PasskeysSection';
import { PhoneSection } from './PhoneSection';
import { SectionIndex, sectionIndex } from './SectionIndex';

const THEME_OPTIONS: Record<Theme, { label: string; icon: ReactNode }> = {
  light: { label: 'Light', icon: <Sun /> },
  dark: { label: 'Dark', icon: <Moon /> },
  system: { label: 'System', icon: <Monitor /> },
};

// The question before clearing loads when it is asked (it is shared with Log out).
const DataLossConfirm = lazy(() => import('../app/DataLossConfirm'));
// Trash, export and import, and the storage line (issue 14).
const DataSafetySections = lazy(() => import('./DataSafetySections'));
// Webhooks (issue 51): its own chunk, with the shared contract's zod.
const WebhooksSection = lazy(() => import('./WebhooksSection').then((m) => ({ default: m.WebhooksSection })));
// Email (issue 65): its own chunk, with the shared contract's zod.
const EmailSection = lazy(() => import('./EmailSection').then((m) => ({ default: m.EmailSection })));

function changesText(n: number): string {
  return n === 1 ? '1 change' : `${n} changes`;
}

/** Where the changes stand, under Sync Now (R2: offline and server unreachable told apart). */
function syncStateText(connection: ReturnType<typeof connectionOf>, pending: number): string {
  const waiting = pending > 0 ? `${changesText(pending)} waiting to sync.` : 'Every change is on the server.';
  if (connection === 'offline') return `You're offline. ${pending > 0 ? waiting : ''}`.trim();
  if (connection === 'unreachable') return `Server unreachable. ${pending > 0 ? waiting : ''}`.trim();
  return waiting;
}

export default function PreferencesPage() {
  const navigate = useNavigate();
  const services = useDoor();
  const user = useSignedInUser();
  const theme = useTheme((s) => s.theme);
  const setTheme = useTheme((s) => s.setTheme);
  const syncing = useStore(services.syncStatus, (s) => s.syncing);
  const pendingCount = useStore(services.syncStatus, (s) => s.pendingCount);
  const connection = useStore(services.syncStatus, connectionOf);
  const [manualSync, setManualSync] = useState(false);
  // Changes not on the server when Clear Local Data was pressed; null while the question is closed.
  const [clearPending, setClearPending] = useState<number | null>(null);
  // A guest's items exist only here: clearing loses them all, which the question says.
  const [guestItems, setGuestItems] = useState(0);
  // Files whose bytes are only here (SYNC.md A14): the question names them and their size.
  const [waitingFiles, setWaitingFiles] = useState<{ count: number; bytes: number } | undefined>();

  const syncNow = async () => {
    setManualSync(true);
    try {
      // The sync run toasts what it came to (R1): 'Sync complete' only when it reached the server.
      await services.send('sync.now');
    } catch {
      toast({
        title: 'Sync failed',
        description: 'Failed to sync items. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setManualSync(false);
    }
  };

  const askClear = async () => {
    const [pending, stored, files] = await Promise.all([
      services.send('device.pendingChanges').catch(() => pendingCount),
      user ? null : services.send('transfer.storage').catch(() => null),
      services.send('attachments.waiting').catch(() => undefined),
    ]);
    setGuestItems(stored?.items ?? 0);
    setWaitingFiles(files);
    setClearPending(pending);
  };

  const clearData = async () => {
    try {
      await services.send('device.clear');
    } finally {
      // Reload either way: a half-cleared state is worse than a fresh start (signed-in data re-syncs).
      window.location.assign('/');
    }
  };

  // 'Export first' in the Clear Local Data question: the device's items as Outpost JSON, offline too.
  const exportFirst = async () => {
    try {
      const { downloadFile } = await import('./mutations');
      downloadFile(await services.send('transfer.export', 'json'));
    } catch {
      toast({ title: 'Export failed', description: 'Please try again.', variant: 'destructive' });
    }
  };

  const busySyncing = manualSync || syncing;

  const index = sectionIndex(user !== null);

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">Preferences</h1>
      <div className="flex flex-col gap-4 lg:grid lg:grid-cols-[10.5rem_minmax(0,1fr)] lg:items-start lg:gap-8">
        <SectionIndex entries={index} />
        <div className="flex min-w-0 flex-col gap-4">
          {user ? <NameSection /> : null}
          {user ? <PhoneSection /> : null}

          <Section
            id="pref-appearance"
            title="Appearance"
            description="Choose how Outpost looks on this device."
          >
            <RadioGroup
              aria-labelledby="pref-appearance"
              value={theme}
              onValueChange={(v) => setTheme(v as Theme)}
              className="grid grid-cols-1 gap-2 sm:grid-cols-3"
            >
              {THEMES.map((t) => (
                <RadioOption key={t} value={t} label={THEME_OPTIONS[t].label} icon={THEME_OPTIONS[t].icon} />
              ))}
            </RadioGroup>
          </Section>

          <Section
            id="pref-notifications"
            title="Notifications"
            description="Hear about changes others make to your items, and your reminders."
          >
            <PushPreferences />
          </Section>
          <Suspense fallback={null}>
            <EmailSection />
          </Suspense>

          <Section
            id="pref-tutorial"
            title="Tutorial"
            description="Take the tour again, or start it over from the beginning."
          >
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                onClick={() => {
                  // A tour closed midway resumes where it was (the saved choice keeps its step list).
                  const onboarding = onboardingStore.getState();
                  if (onboarding.completedAt !== null || onboarding.skippedAt === null)
                    onboarding.setCurrentStep(0);
                  navigate('/onboarding');
                }}
              >
                <BookOpen aria-hidden />
                View Tutorial
              </Button>
              <Button
                variant="outline"
                onClick={() => {
                  onboardingStore.getState().reset();
                  navigate('/onboarding');
                }}
              >
                <RotateCcw aria-hidden />
                Reset Tutorial
              </Button>
            </div>
          </Section>

          {user ? (
            <Section
              id="pref-sync"
              title="Sync Settings"
              description="Your items sync automatically every 30 seconds while online."
            >
              <Button variant="outline" onClick={() => void syncNow()} disabled={busySyncing}>
                <RefreshCw
                  aria-hidden
                  className={busySyncing ? 'animate-spin motion-reduce:animate-none' : undefined}
                />
                {busySyncing ? 'Syncing...' : 'Sync Now'}
              </Button>
              <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400" data-testid="sync-state">
                {syncStateText(connection, pendingCount)}
              </p>
            </Section>
          ) : null}

          <Section
            id="pref-contacts"
            title="Contacts"
            description="Find the people you know who use Outpost."
          >
            <Button variant="outline" onClick={() => navigate('/contacts')}>
              <Users aria-hidden />
              View Contacts
            </Button>
          </Section>

          <Section
            id="pref-time"
            title="Time"
            description="Time tracked on your items, by campaign, person and week."
          >
            <Button variant="outline" onClick={() => navigate('/reports/time')}>
              <Timer aria-hidden />
              Time report
            </Button>
          </Section>

          {user ? <CalendarSection /> : null}
          {user ? <DevicesSection /> : null}
          {user ? <PasskeysSection /> : null}
          {/* Tokens and webhooks side by side: both let other software act on or hear of your work. */}
          <ApiTokensSection />
          {user ? (
            <Suspense fallback={null}>
              <WebhooksSection />
            </Suspense>
          ) : null}

          <Suspense fallback={null}>
            <DataSafetySections part="trash-data" />
          </Suspense>

          {/* The danger zone comes last, where nobody reaches it on the way to something else. */}
          <Section
            id="pref-data"
            title="Data Management"
            description={
              user
                ? 'Remove everything stored on this device. Items already on the server come back; changes not yet synced are lost.'
                : 'Remove everything stored on this device. Your items exist only here and are lost.'
            }
          >
            <Suspense fallback={null}>
              <DataSafetySections part="storage" guest={!user} />
            </Suspense>
            <Button variant="danger" onClick={() => void askClear()}>
              <Trash2 aria-hidden />
              Clear Local Data
            </Button>
          </Section>
        </div>
      </div>

      {clearPending === null ? null : (
        <Suspense fallback={null}>
          <DataLossConfirm
            open
            action="clear"
            pending={clearPending}
            onOpenChange={(open) => {
              if (!open) setClearPending(null);
            }}
            onConfirm={clearData}
            onExport={() => void exportFirst()}
            localOnly={guestItems}
            waitingFiles={waitingFiles}
          />
        </Suspense>
      )}
    </div>
  );
}
