import { lazy, Suspense } from 'react';
import { useStore } from 'zustand';
import { cancelTypeahead } from '../search/typeahead';
import { uiStore, useUi } from '../stores/uiStore';
import { useDoor } from './door';
import { setShortcutHelpOpen, shortcutHelpStore } from './GlobalShortcuts';
import { useMountedOnce } from './useMountedOnce';

const SearchDialog = lazy(() => import('../search/SearchDialog'));
const ShortcutHelp = lazy(() => import('./ShortcutHelp'));
const CreateItemDialog = lazy(() => import('../items/CreateItemDialog'));
// The open conflicts are a live read of the device: loaded when the data layer counts one.
const SyncConflictHost = lazy(() => import('../sync/SyncConflictHost'));
// Only after a guest signs in (or an interrupted upload resumes): not part of the first screen.
const UpgradeOverlay = lazy(() => loadUpgradeOverlay().then((m) => ({ default: m.UpgradeOverlay })));

/**
 * The celebration's code, asked for as a sign-in starts and awaited before it shows (useSignIn): the
 * overlay then opens with Home, never a moment later over a card the user has already begun to fill.
 */
export function loadUpgradeOverlay() {
  return import('../sync/UpgradeOverlay');
}

/** The app-wide dialogs: search (Ctrl/Cmd+K), shortcut help ('?'), create (the add button), conflicts and the upgrade. */
export function GlobalOverlays() {
  const searchOpen = useUi((s) => s.searchOpen);
  const createOpen = useUi((s) => s.createOpen);
  const createParentId = useUi((s) => s.createParentId);
  const searchMounted = useMountedOnce(searchOpen);
  const createMounted = useMountedOnce(createOpen);
  const helpOpen = useStore(shortcutHelpStore, (s) => s.open);
  const helpMounted = useMountedOnce(helpOpen);
  const celebrating = useUi((s) => s.celebration !== null);
  const door = useDoor();
  const upgrading = useStore(door.syncStatus, (s) => s.upgrade !== null);
  const upgradeMounted = useMountedOnce(celebrating || upgrading);
  // The conflict dialog's code (a live read of the device) loads once the data layer counts a conflict.
  const conflicted = useStore(door.syncStatus, (s) => s.conflictCount > 0);
  const conflictsMounted = useMountedOnce(door.client !== null && conflicted);

  return (
    <>
      <Suspense fallback={null}>
        {searchMounted ? (
          <SearchDialog
            open={searchOpen}
            onOpenChange={(o) => {
              if (!o) cancelTypeahead();
              uiStore.getState().setSearchOpen(o);
            }}
          />
        ) : null}
        {createMounted ? (
          <CreateItemDialog
            open={createOpen}
            onOpenChange={(o) => uiStore.getState().setCreateOpen(o)}
            parentId={createParentId}
          />
        ) : null}
        {helpMounted ? <ShortcutHelp open={helpOpen} onOpenChange={setShortcutHelpOpen} /> : null}
        {upgradeMounted ? <UpgradeOverlay /> : null}
      </Suspense>
      {conflictsMounted ? (
        <Suspense fallback={null}>
          <SyncConflictHost />
        </Suspense>
      ) : null}
    </>
  );
}
