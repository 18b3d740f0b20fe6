/** The transfer's parts of the client: export, import and downloads (composed by client.ts, ARCHITECTURE §6). */
import type { ExportMember } from '../../../shared/importExport';
import { lazily } from '../lazy';
import type { ApiClient, FetchLike } from '../net/apiClient';
import type { DataTransferDeps, ExportFile } from './dataTransfer';

/** Saves a file the device made, loading the saver on first use (./downloadFile.ts). */
export const downloadPart = {
  name: 'download',
  needs: [],
  create: () => (file: ExportFile) => void import('./downloadFile').then((m) => m.downloadFile(file)),
} as const;

/** Export, import and what the device stores (./dataTransfer.ts), loaded on first use (papaparse stays out of Home). */
export const transferPart = {
  name: 'transfer',
  needs: ['db', 'viewer', 'items', 'backgroundSync', 'isOnline', 'api', 'trackedFetch', 'baseUrl', 'uploads'],
  create: ({
    db,
    viewer,
    items,
    backgroundSync,
    isOnline,
    api,
    trackedFetch,
    baseUrl,
    uploads,
  }: Pick<DataTransferDeps, 'db' | 'viewer' | 'items'> & {
    backgroundSync: { run: () => unknown };
    isOnline: () => boolean;
    api: ApiClient;
    trackedFetch: FetchLike;
    baseUrl: string;
    uploads: { kick: () => void };
  }) =>
    lazily(() =>
      import('./dataTransfer').then((m) =>
        m.createDataTransfer({
          db,
          viewer,
          items,
          syncSoon: backgroundSync.run,
          uploads,
          // An export with files reads an uploaded one's bytes through the checked content route.
          fileBytes: async (url) => {
            if (!isOnline() || viewer().isGuest) return null;
            const response = await trackedFetch(`${baseUrl}${url}`, { credentials: 'include' });
            return response.ok ? response.blob() : null;
          },
          // An export names each campaign's people as the server lists them, when it can ask now.
          members: async (campaignId) => {
            if (!isOnline() || viewer().isGuest) return null;
            const { data } = await api.get<{
              members: { user: { name: string; phone: string | null }; role: ExportMember['role'] }[];
            }>(`/campaigns/${campaignId}/members`);
            return data.members.map((m) => ({
              name: m.user.name,
              phone: m.user.phone || null,
              role: m.role,
            }));
          },
        }),
      ),
    ),
} as const;
