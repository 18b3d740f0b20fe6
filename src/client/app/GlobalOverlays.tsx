import { lazy, Suspense, useEffect, useState } from 'react';
import { uiStore, useUi } from '../stores/uiStore';
import { SyncConflictHost } from '../sync/SyncConflictHost';
import { UpgradeOverlay } from '../sync/UpgradeOverlay';

const SearchDialog = lazy(() => import('../search/SearchDialog'));
const CreateItemDialog = lazy(() => import('../items/CreateItemDialog'));

/** Becomes true the first time `open` is, so a dialog's code loads on first use and then stays. */
function useMountedOnce(open: boolean): boolean {
  const [mounted, setMounted] = useState(open);
  useEffect(() => {
    if (open) setMounted(true);
  }, [open]);
  return mounted || open;
}

/** The app-wide dialogs: search (Ctrl/Cmd+K), create (the add button), conflicts and the upgrade. */
export function GlobalOverlays() {
  const searchOpen = useUi((s) => s.searchOpen);
  const createOpen = useUi((s) => s.createOpen);
  const createParentId = useUi((s) => s.createParentId);
  const searchMounted = useMountedOnce(searchOpen);
  const createMounted = useMountedOnce(createOpen);

  return (
    <>
      <Suspense fallback={null}>
        {searchMounted ? (
          <SearchDialog open={searchOpen} onOpenChange={(o) => uiStore.getState().setSearchOpen(o)} />
        ) : null}
        {createMounted ? (
          <CreateItemDialog
            open={createOpen}
            onOpenChange={(o) => uiStore.getState().setCreateOpen(o)}
            parentId={createParentId}
          />
        ) : null}
      </Suspense>
      <SyncConflictHost />
      <UpgradeOverlay />
    </>
  );
}
