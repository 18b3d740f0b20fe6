import type { FastifyInstance } from 'fastify';

/** Where a share the server took goes: the app, which asks to share again (src/shared/share.ts readShareQuery). */
export const SHARE_AGAIN_LOCATION = '/?share=again';

/**
 * `POST /share`, the manifest's share_target (vite.config.ts). The service worker answers it on a
 * device where it runs (public/share-sw.js); this answers it where none does yet (the first visit,
 * a browser that dropped the worker): 303 to the app, which says to share again now that it is
 * installed, instead of a 404 or a 415 for the multipart body. The body is never read: the answer goes
 * out in onRequest, before any parsing, so a large shared file costs nothing.
 */
export async function shareRoutes(app: FastifyInstance): Promise<void> {
  app.post(
    '/share',
    {
      // Not part of the API: the browser posts it for the installed app (the document lists /api, /sanctum, /cal).
      schema: { hide: true },
      onRequest: async (_request, reply) => {
        await reply.header('Cache-Control', 'no-store').redirect(SHARE_AGAIN_LOCATION, 303);
      },
    },
    // Never reached: onRequest has answered.
    async (_request, reply) => reply.redirect(SHARE_AGAIN_LOCATION, 303),
  );
}
