import { BookOpen, Monitor, Moon, RefreshCw, RotateCcw, Sun, Trash2, Users } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { toast, useServices, useSignedInUser } from '../app/services';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Dialog,
  DialogContent,
  DialogFooter,
  RadioGroup,
  RadioOption,
} from '../components/ui';
import { onboardingStore } from '../stores/onboardingStore';
import { THEMES, type Theme, useTheme } from '../stores/themeStore';

const THEME_OPTIONS: Record<Theme, { label: string; icon: ReactNode }> = {
  light: { label: 'Light', icon: <Sun /> },
  dark: { label: 'Dark', icon: <Moon /> },
  system: { label: 'System', icon: <Monitor /> },
};

export const CLEAR_CONFIRM_TEXT = 'Are you sure you want to clear all local data? This cannot be undone.';

function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card aria-labelledby={id} role="region">
      <CardHeader>
        <CardTitle id={id}>{title}</CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

export default function PreferencesPage() {
  const navigate = useNavigate();
  const services = useServices();
  const user = useSignedInUser();
  const theme = useTheme((s) => s.theme);
  const setTheme = useTheme((s) => s.setTheme);
  const syncing = useStore(services.syncStatus, (s) => s.syncing);
  const [manualSync, setManualSync] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [clearing, setClearing] = useState(false);

  const syncNow = async () => {
    setManualSync(true);
    try {
      await services.syncNow();
      toast({ title: 'Sync complete', description: 'Your items have been synchronized.' });
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

  const clearData = async () => {
    setClearing(true);
    try {
      await services.clearLocalData();
    } finally {
      // Reload either way: a half-cleared state is worse than a fresh start (signed-in data re-syncs).
      window.location.assign('/');
    }
  };

  const busySyncing = manualSync || syncing;

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">Preferences</h1>

      <Section id="pref-appearance" title="Appearance" description="Choose how Outpost looks on this device.">
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
        id="pref-tutorial"
        title="Tutorial"
        description="Take the tour again, or start it over from the beginning."
      >
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            onClick={() => {
              onboardingStore.getState().setCurrentStep(0);
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
        </Section>
      ) : null}

      <Section id="pref-contacts" title="Contacts" description="Find the people you know who use Outpost.">
        <Button variant="outline" onClick={() => navigate('/contacts')}>
          <Users aria-hidden />
          View Contacts
        </Button>
      </Section>

      <Section
        id="pref-data"
        title="Data Management"
        description={
          user
            ? 'Remove everything stored on this device. Your synced items come back from the server.'
            : 'Remove everything stored on this device. Items you have not synced are lost.'
        }
      >
        <Button variant="danger" onClick={() => setConfirmOpen(true)}>
          <Trash2 aria-hidden />
          Clear Local Data
        </Button>
      </Section>

      <Dialog open={confirmOpen} onOpenChange={setConfirmOpen}>
        <DialogContent size="sm" title="Clear Local Data" description={CLEAR_CONFIRM_TEXT} role="alertdialog">
          <DialogFooter className="mt-0">
            <Button variant="outline" onClick={() => setConfirmOpen(false)} disabled={clearing}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void clearData()} disabled={clearing}>
              {clearing ? 'Clearing...' : 'Clear Local Data'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
