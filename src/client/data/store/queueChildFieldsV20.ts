import type { ItemChildName } from '../../../shared/itemChildren';

/**
 * The fields a queue row named its child by before version 21, each with its kind and the key it held:
 * version 21's upgrade moves them into `child` (store/db.ts), and sync/ names none of them
 * (scripts/lib/syncChildren.ts). Frozen: a kind declared since never had one. A module of its own that
 * reads the declarations as types only, so Home's first chunk takes neither shared/itemChildren.ts nor
 * shared/protocol.ts with the store.
 */
export const QUEUE_CHILD_FIELDS_V20 = {
  commentId: { kind: 'comments', key: 'id' },
  timeEntry: { kind: 'time_entries', key: 'uuid' },
  attachment: { kind: 'attachments', key: 'uuid' },
} as const satisfies Record<string, { kind: ItemChildName; key: 'id' | 'uuid' }>;
