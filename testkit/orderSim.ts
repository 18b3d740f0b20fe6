import { inManualOrder } from '../src/shared/manualOrder';
import { changedFields, type MergeField, rebase } from '../src/shared/merge';
import { type KeyWrite, keyForLast, lastKeyOf, moveByStep, moveTo, placeAt } from '../src/shared/order';
import type { RandomBit } from '../src/shared/sortKey';

/**
 * Devices and a server that keep manual order and nothing else, for the convergence proof of SYNC.md
 * O3 (src/shared/order.test.ts). The server applies writes in arrival order and answers a stale one
 * (If-Match older than its version) with 412 and its copy; a device keeps a queue of writes, stores
 * its own moves at once, and merges what it learns with the one shared `rebase` (src/shared/merge.ts)
 * as the real client does on a pull and on a 412.
 */

export interface Rec {
  id: number;
  uuid: string;
  parent_id: number | null;
  sort_key: string;
  version: number;
  completed_at: string | null;
}

/** A write as the server logged it: which device write it was and which fields it set. */
export interface Applied {
  write: string;
  id: number;
  fields: Partial<Pick<Rec, 'parent_id' | 'sort_key'>>;
}

export class OrderServer {
  readonly items = new Map<number, Rec>();
  readonly log: Applied[] = [];

  create(rec: Rec, write: string): Rec {
    const known = this.items.get(rec.id);
    if (known) return known;
    const stored = { ...rec, version: 1 };
    this.items.set(rec.id, stored);
    this.log.push({ write, id: rec.id, fields: { parent_id: rec.parent_id, sort_key: rec.sort_key } });
    return { ...stored };
  }

  patch(
    id: number,
    fields: Applied['fields'],
    ifMatch: number,
    write: string,
  ): { status: 200 | 412; item: Rec } {
    const item = this.items.get(id);
    if (!item) throw new Error(`The server has no item ${id}`);
    if (item.version > ifMatch) return { status: 412, item: { ...item } };
    Object.assign(item, fields, { version: item.version + 1 });
    this.log.push({ write, id, fields });
    return { status: 200, item: { ...item } };
  }

  /** The children of `parent` in manual order, as ids. */
  order(parent: number): number[] {
    return inManualOrder([...this.items.values()].filter((i) => i.parent_id === parent)).map((i) => i.id);
  }
}

interface Entry {
  write: string;
  kind: 'create' | 'update';
  id: number;
  fields: Applied['fields'];
  baseVersion: number | null;
}

interface Local {
  item: Rec;
  base: Rec | null;
  dirty: MergeField[];
}

export class OrderDevice {
  readonly items = new Map<number, Local>();
  readonly queue: Entry[] = [];
  /** Every write this device made, by its name. */
  readonly writes: string[] = [];
  private count = 0;

  constructor(
    readonly name: string,
    private readonly random: RandomBit,
  ) {}

  /** The children of `parent` here, in manual order. */
  list(parent: number): Rec[] {
    return inManualOrder([...this.items.values()].map((l) => l.item).filter((i) => i.parent_id === parent));
  }

  order(parent: number): number[] {
    return this.list(parent).map((i) => i.id);
  }

  /** A new item under `parent` at `index` (the end when past it); `id` is unique across devices. */
  insert(id: number, parent: number, index: number): void {
    const list = this.list(parent);
    const writes =
      index >= list.length
        ? [{ id, sort_key: keyForLast(lastKeyOf(list), this.random) }]
        : placeAt(list, id, index, this.random);
    const own = writes.find((w) => w.id === id) as KeyWrite;
    const item: Rec = {
      id,
      uuid: `u${id}`,
      parent_id: parent,
      sort_key: own.sort_key,
      version: 0,
      completed_at: null,
    };
    this.items.set(id, { item, base: null, dirty: [] });
    this.queue.push({ write: this.nextWrite(), kind: 'create', id, fields: {}, baseVersion: null });
    this.keys(writes.filter((w) => w.id !== id));
  }

  /** A drop of the `pick`-th item of `parent`'s list at `to` (the place it takes). */
  reorder(parent: number, pick: number, to: number): void {
    const list = this.list(parent);
    const item = list[pick % Math.max(1, list.length)];
    if (item) this.keys(moveTo(list, item.id, to % list.length, this.random));
  }

  /** Alt+↑ or Alt+↓ on the `pick`-th item of `parent`'s list. */
  step(parent: number, pick: number, step: -1 | 1): void {
    const list = this.list(parent);
    const item = list[pick % Math.max(1, list.length)];
    if (item) this.keys(moveByStep(list, item.id, step, this.random));
  }

  /** The `pick`-th item of `from` dropped into `to`'s list at `index`: parent and key in one write. */
  move(from: number, pick: number, to: number, index: number): void {
    if (from === to) return;
    const source = this.list(from);
    const item = source[pick % Math.max(1, source.length)];
    if (!item) return;
    const writes = placeAt(this.list(to), item.id, index, this.random);
    for (const w of writes) {
      const fields = w.id === item.id ? { parent_id: to, sort_key: w.sort_key } : { sort_key: w.sort_key };
      this.edit(w.id, fields);
    }
  }

  private keys(writes: readonly KeyWrite[]): void {
    for (const w of writes) this.edit(w.id, { sort_key: w.sort_key });
  }

  private edit(id: number, fields: Applied['fields']): void {
    const local = this.items.get(id) as Local;
    local.item = { ...local.item, ...fields };
    for (const f of Object.keys(fields) as MergeField[]) if (!local.dirty.includes(f)) local.dirty.push(f);
    const pendingCreate = this.queue.some((e) => e.id === id && e.kind === 'create');
    this.queue.push({
      write: this.nextWrite(),
      kind: 'update',
      id,
      fields,
      baseVersion: pendingCreate ? null : (local.base?.version ?? null),
    });
  }

  private nextWrite(): string {
    const name = `${this.name}#${++this.count}`;
    this.writes.push(name);
    return name;
  }

  /** Sends the queue in order, rebasing on a 412 as the client does (Q9, C3). */
  push(server: OrderServer): void {
    while (this.queue.length > 0) {
      const entry = this.queue[0] as Entry;
      const local = this.items.get(entry.id) as Local;
      let answer: Rec;
      if (entry.kind === 'create') {
        answer = server.create({ ...local.item, version: 1 }, entry.write);
        // What the create carried is the item as it was made; later edits are queued after it.
      } else {
        const base = entry.baseVersion ?? (local.base?.version as number);
        const sent = server.patch(entry.id, entry.fields, base, entry.write);
        if (sent.status === 412) {
          this.merge(local, sent.item);
          for (const e of this.queue) if (e.id === entry.id) e.baseVersion = sent.item.version;
          continue;
        }
        answer = sent.item;
      }
      this.queue.shift();
      const rest = this.queue.filter((e) => e.id === entry.id);
      for (const e of rest) e.baseVersion = answer.version;
      local.base = answer;
      if (rest.length === 0) {
        local.item = { ...answer };
        local.dirty = [];
      } else {
        local.dirty = [...new Set(rest.flatMap((e) => Object.keys(e.fields) as MergeField[]))];
      }
    }
  }

  /** Takes every server copy, merging it with local edits through the shared rebase (C3). */
  pull(server: OrderServer): void {
    for (const remote of server.items.values()) {
      const local = this.items.get(remote.id);
      if (!local) {
        this.items.set(remote.id, { item: { ...remote }, base: { ...remote }, dirty: [] });
      } else if (local.dirty.length === 0 && !this.queue.some((e) => e.id === remote.id)) {
        local.item = { ...remote };
        local.base = { ...remote };
      } else {
        this.merge(local, remote);
      }
    }
  }

  private merge(local: Local, remote: Rec): void {
    const result = rebase(
      { item: local.item, base: local.base, dirty: local.dirty, deleted: false },
      { ...remote },
    );
    if (result.kind === 'conflict')
      throw new Error(`A move conflicted on ${this.name}: ${JSON.stringify(local)}`);
    if (result.kind === 'merged') {
      local.item = result.item;
      local.base = result.base;
    }
  }

  sync(server: OrderServer): void {
    this.push(server);
    this.pull(server);
  }

  /** Fields this device shows differently from its last server copy (for a failing run's message). */
  unsynced(): string[] {
    return [...this.items.values()].flatMap((l) =>
      l.base ? changedFields(l.base, l.item).map((f) => `${l.item.id}.${f}`) : [`${l.item.id}`],
    );
  }
}
