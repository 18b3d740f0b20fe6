import { type Executor, rows, sql } from '../db/client';

/**
 * Stores `phones` as `user`'s contacts (duplicates ignored) and answers the ids of the people this
 * makes (or keeps) mutual with them (E3: they hear of it on their event streams).
 */
export async function saveContacts(
  tx: Executor,
  user: { id: number; phone: string | null },
  phones: ReadonlySet<string>,
): Promise<number[]> {
  if (phones.size > 0) {
    const values = sql.join(
      [...phones].map((phone) => sql`(${user.id}, ${phone})`),
      sql`, `,
    );
    await tx.execute(
      sql`INSERT INTO contacts (user_id, contact_phone) VALUES ${values} ON CONFLICT DO NOTHING`,
    );
  }
  // E3: the people this import made (or keeps) mutual hear of it on their event streams, and so
  // does the caller's other devices: their pickers and Contacts page would otherwise wait for
  // a visit to Contacts.
  const phoneList = [...phones];
  const mutualIds =
    phoneList.length === 0
      ? []
      : (
          await rows<{ id: number }>(
            tx,
            sql`SELECT u.id FROM users u
                    JOIN contacts theirs ON theirs.user_id = u.id AND theirs.contact_phone = ${user.phone}
                    WHERE u.phone IN (${sql.join(
                      phoneList.map((phone) => sql`${phone}`),
                      sql`, `,
                    )})`,
          )
        ).map((row) => row.id);
  return mutualIds;
}
