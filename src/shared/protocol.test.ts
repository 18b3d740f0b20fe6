import { describe, expect, it } from 'vitest';
import {
  commentIdOfUrl,
  createPayload,
  decidePush,
  isStaleWriteBody,
  MAX_RETRIES,
  type PushContext,
  queueRequest,
  sendsIfMatch,
} from './protocol';

const ctx = (over: Partial<PushContext> = {}): PushContext => ({
  kind: 'update',
  retries: 0,
  attempt: 0,
  onServer: true,
  immediate: false,
  ...over,
});

describe('queue entry kinds', () => {
  it('builds an item’s requests; an assignment sends If-Match, a create and a restore do not', () => {
    expect(queueRequest('assign', 7)).toEqual({ method: 'POST', url: '/api/items/7/assign' });
    expect(sendsIfMatch('create')).toBe(false);
    expect(sendsIfMatch('assign')).toBe(true);
    expect(sendsIfMatch('restore')).toBe(false);
  });

  it('K8: builds a comment’s requests, none with If-Match, and reads the comment id back from the URL', () => {
    expect(queueRequest('comment_create', 7)).toEqual({ method: 'POST', url: '/api/items/7/comments' });
    expect(queueRequest('comment_edit', 7, 42)).toEqual({ method: 'PATCH', url: '/api/comments/42' });
    expect(queueRequest('comment_delete', 7, 42)).toEqual({ method: 'DELETE', url: '/api/comments/42' });
    expect(commentIdOfUrl('/api/comments/42')).toBe(42);
    expect(commentIdOfUrl('/api/items/7/comments')).toBe(0);
    for (const kind of ['comment_create', 'comment_edit', 'comment_delete'] as const)
      expect(sendsIfMatch(kind)).toBe(false);
    expect(decidePush(404, false, ctx({ kind: 'comment_delete' }))).toBe('already-deleted');
    expect(decidePush(404, false, ctx({ kind: 'comment_edit' }))).toBe('drop');
    expect(decidePush(422, false, ctx({ kind: 'comment_create', immediate: true }))).toBe('drop');
    expect(decidePush(503, false, ctx({ kind: 'comment_create' }))).toBe('retry');
  });

  it('X10: builds a time entry’s requests by its uuid, none with If-Match; a refusal drops it', () => {
    const uuid = '6f1c1f4e-3d7e-4c6b-9a51-0c5a1f0f2b11';
    expect(queueRequest('time_create', 7)).toEqual({ method: 'POST', url: '/api/items/7/time_entries' });
    expect(queueRequest('time_stop', 7, 0, uuid)).toEqual({
      method: 'POST',
      url: `/api/time_entries/${uuid}/stop`,
    });
    expect(queueRequest('time_edit', 7, 0, uuid)).toEqual({
      method: 'PATCH',
      url: `/api/time_entries/${uuid}`,
    });
    expect(queueRequest('time_delete', 7, 0, '42')).toEqual({
      method: 'DELETE',
      url: '/api/time_entries/42',
    });
    for (const kind of ['time_create', 'time_stop', 'time_edit', 'time_delete'] as const)
      expect(sendsIfMatch(kind)).toBe(false);
    expect(decidePush(404, false, ctx({ kind: 'time_delete' }))).toBe('already-deleted');
    expect(decidePush(422, false, ctx({ kind: 'time_create', immediate: true }))).toBe('drop');
    expect(decidePush(503, false, ctx({ kind: 'time_stop' }))).toBe('retry');
  });

  it('builds one create payload from an item', () => {
    const payload = createPayload({
      title: 'T',
      type: 'todo',
      parent_id: null,
      status: 'pending',
      description: null,
      assigned_to: null,
      due_date: null,
      end_date: null,
      uuid: 'u',
    });
    expect(Object.keys(payload).sort()).toEqual(
      [
        'assigned_to',
        'description',
        'due_date',
        'end_date',
        'estimate_minutes',
        'parent_id',
        'recurrence',
        'remind_at',
        'series_uuid',
        'start_date',
        'status',
        'time_zone',
        'title',
        'type',
        'uuid',
      ].sort(),
    );
  });
});

describe('the create payload and the planning fields', () => {
  const item = {
    title: 'T',
    type: 'todo' as const,
    parent_id: null,
    status: 'pending' as const,
    description: null,
    assigned_to: null,
    due_date: null,
    end_date: null,
    uuid: 'u',
  };

  it('carries priority, labels and the place the device gave', () => {
    expect(createPayload({ ...item, priority: 2, labels: ['a'], sort_key: 'a1' })).toMatchObject({
      priority: 2,
      labels: ['a'],
      sort_key: 'a1',
    });
  });

  it('leaves out a place the row does not have yet, so the server puts it last', () => {
    expect(createPayload({ ...item, sort_key: '' })).not.toHaveProperty('sort_key');
  });
});

describe('the push status policy', () => {
  it('Q2: no answer stops the run and keeps the entry', () => {
    expect(decidePush(0, true, ctx())).toBe('network');
  });

  it('Q3, Q4, Q5: a 4xx other than 409/412/429 drops the entry; 401, 404 and 419 have their own rules', () => {
    for (const status of [400, 403, 409, 422]) expect(decidePush(status, false, ctx())).toBe('drop');
    expect(decidePush(401, false, ctx())).toBe('unauthorized');
    expect(decidePush(419, false, ctx())).toBe('renew-token');
    expect(decidePush(419, false, ctx({ attempt: 1 }))).toBe('hold');
    expect(decidePush(404, false, ctx({ kind: 'delete' }))).toBe('already-deleted');
    expect(decidePush(404, false, ctx())).toBe('gone');
    expect(decidePush(404, false, ctx({ onServer: false }))).toBe('drop');
    // A restore of an item purged or no longer shared has nothing to bring back (Q5).
    expect(decidePush(404, false, ctx({ kind: 'restore' }))).toBe('drop');
    expect(decidePush(422, false, ctx({ kind: 'restore' }))).toBe('drop');
    // The spec's failed online create keeps its local pending copy: counted, not dropped.
    expect(decidePush(422, false, ctx({ kind: 'create', onServer: false, immediate: true }))).toBe('retry');
  });

  it('Q6: 429 holds the queue', () => {
    expect(decidePush(429, false, ctx())).toBe('rate-limited');
  });

  it('Q7: a server failure counts a retry, and the third drops the entry', () => {
    expect(decidePush(500, false, ctx())).toBe('retry');
    expect(decidePush(503, false, ctx({ retries: MAX_RETRIES - 2 }))).toBe('retry');
    expect(decidePush(502, false, ctx({ retries: MAX_RETRIES - 1 }))).toBe('drop-after-retries');
  });

  it('Q9: a 412 is rebased, and its body is checked, not cast', () => {
    expect(decidePush(412, false, ctx())).toBe('stale');
    expect(isStaleWriteBody({ message: 'Stale.', item: { id: 1, version: 4 } })).toBe(true);
    expect(isStaleWriteBody({ message: 'Stale.' })).toBe(false);
    expect(isStaleWriteBody({ message: 'Stale.', item: { id: '1', version: 4 } })).toBe(false);
    expect(isStaleWriteBody(null)).toBe(false);
  });
});
