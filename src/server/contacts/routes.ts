import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contactsSyncAnswerSchema, mutualsAnswerSchema } from '../../shared/apiSchemas';
import { normalizePhone } from '../../shared/phone';
import { contactsSyncSchema } from '../../shared/schemas';
import { currentUser } from '../http/context';
import { runWrite } from '../http/idempotency';
import { invalidAnswer, routeDoc } from '../openapi/routeDoc';
import { listMutuals, listSampleUsers } from './mutuals';
import { saveContacts } from './store';

/** Phones normalised between two yields to the event loop (each takes up to ~0.2 ms to parse). */
export const NORMALIZE_CHUNK = 100;

/**
 * The distinct normalised phones of `contacts`, without the caller's own and without non-phones. A
 * full request (2,000 phones) takes a few hundred milliseconds of parsing, so it yields to the event
 * loop every {@link NORMALIZE_CHUNK} phones: other requests are answered in between instead of
 * waiting for the whole address book.
 */
export async function normalizeContacts(
  contacts: readonly string[],
  defaultCountry: string,
  ownPhone: string | null,
): Promise<Set<string>> {
  const phones = new Set<string>();
  for (let start = 0; start < contacts.length; start += NORMALIZE_CHUNK) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const raw of contacts.slice(start, start + NORMALIZE_CHUNK)) {
      const phone = normalizePhone(raw, defaultCountry);
      if (phone && phone !== ownPhone) phones.add(phone);
    }
  }
  return phones;
}

/** The caller's address book (phones only) and the mutual contacts who use Outpost. */
export async function contactsRoutes(plain: FastifyInstance): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const database = app.database;
  const TAGS = ['Contacts'];

  const syncDoc = routeDoc({
    summary: 'Send phone contacts',
    description:
      'Stores the caller’s contacts’ phones (normalised; duplicates and non-phones ignored), at most 2,000 a request.',
    tags: TAGS,
    body: contactsSyncSchema,
    answers: {
      200: {
        description: 'How many distinct phones of this request are stored.',
        schema: contactsSyncAnswerSchema,
      },
      422: invalidAnswer(),
    },
  });
  app.post('/contacts/sync', { schema: syncDoc }, async (request, reply) => {
    const user = currentUser(request);
    const { contacts } = request.body;
    const phones = await normalizeContacts(contacts, app.config.defaultCountry, user.phone);
    const result = await runWrite(app, request, user.id, async (tx) => {
      const mutualIds = await saveContacts(tx, user, phones);
      return { status: 200, body: { count: phones.size }, formerViewers: [user.id, ...mutualIds] };
    });
    return reply.status(result.status).send(result.body);
  });

  const mutualsDoc = routeDoc({
    summary: 'Mutual contacts',
    description: 'Users whose phone the caller has and who have the caller’s phone.',
    tags: TAGS,
    answers: { 200: { description: 'The mutual contacts.', schema: mutualsAnswerSchema } },
  });
  app.get('/contacts/mutuals', { schema: mutualsDoc }, async (request) => {
    const user = currentUser(request);
    const [mutuals, samples] = await Promise.all([
      listMutuals(database.db, user.id, user.phone),
      listSampleUsers(database.db),
    ]);
    return { mutuals, samples };
  });
}
