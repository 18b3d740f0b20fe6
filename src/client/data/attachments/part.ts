/**
 * The uploader's part of the client (composed by client.ts, ARCHITECTURE §6) and what starts it. Only
 * this much comes with the first screen: the triggers and the uploader's making (./uploadTriggers.ts)
 * load once there is an account, or when a command asks for a run (a file added, a retry); the
 * uploader's code (./uploader.ts) with the first file there is to send.
 */
import { lazily } from '../lazy';
import type { TriggerContext, UploadsDeps } from './uploadTriggers';

export interface Uploads {
  /** A run of the uploader: now, or once the one under way ends. */
  kick(): void;
  /** Resolves once no upload run is under way or asked for (tests wait on it). */
  settled(): Promise<void>;
  /** Starts the triggers (AFTER_SESSION_CHECK in client.ts). */
  service: { name: string; start(ctx: TriggerContext): () => void };
}

export const uploadsPart = {
  name: 'uploads',
  needs: [
    'db',
    'api',
    'viewer',
    'isOnline',
    'trackedFetch',
    'baseUrl',
    'xsrfToken',
    'toasts',
    'download',
    'idSwaps',
    'locks',
    'engine',
  ],
  // A 401 to an upload goes to the auth store as the API client's does.
  later: ['auth'],
  create(deps: UploadsDeps): Uploads {
    const load = lazily(() => import('./uploadTriggers').then((m) => m.createUploads(deps)));
    /** The service has stopped (the client closed): no run starts after it. */
    let ended = false;
    return {
      kick: () => {
        if (!ended) load().then((uploads) => uploads.kick(), console.error);
      },
      // Nothing was asked of an uploader whose module has not been asked for.
      settled: async () => (load.started() ? (await load()).settled() : undefined),
      service: {
        name: 'uploads',
        start(ctx) {
          let stopTriggers: (() => void) | null = null;
          // A guest's files wait on the device until a sign-in: the triggers load with the account.
          const begin = () => {
            off();
            load().then((uploads) => {
              if (!ended) stopTriggers = uploads.start(ctx);
            }, console.error);
          };
          const off = ctx.auth.subscribe((state) => (state.isAuthenticated ? begin() : undefined));
          if (ctx.auth.getState().isAuthenticated) begin();
          return () => {
            ended = true;
            off();
            stopTriggers?.();
            if (load.started())
              load().then(
                (uploads) => uploads.stop(),
                () => undefined,
              );
          };
        },
      },
    };
  },
} as const;
