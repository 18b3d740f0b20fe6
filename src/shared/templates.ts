import { v5 as uuidV5 } from 'uuid';
import { z } from 'zod';
import { addDays, daysBetween } from './dateOnly';
import { ALLOWED_PARENT_TYPES } from './hierarchy';
import type { ItemType } from './item';
import { FIELD_SCHEMAS, idSchema, type itemBatchEntrySchema, text } from './schemas';

// Templates (ARCHITECTURE §4 'Templates'): the contract of server and device. A template's `tree` is
// a list of top-level nodes (one campaign or one task; a checklist's todos) with their children, each
// holding what a person plans (titles, descriptions, types, priorities, labels, estimates,
// recurrence, order) and its dates as whole days from an anchor: never comments, time, history,
// assignees or status. The pure steps both sides run are here: item rows → tree (snapshot), tree →
// the creates of one instantiation with shifted dates and uuids derived from the request's uuid, so a
// device that instantiated offline and the server name every item alike.

export const TEMPLATE_KINDS = ['campaign', 'task', 'checklist'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** Most nodes one template holds (a 422 past it). */
export const TEMPLATE_MAX_NODES = 1000;
/** Longest template name, in characters. */
export const TEMPLATE_NAME_MAX = 100;
/** Furthest a date may lie from its template's anchor, in days (about a century either way). */
export const TEMPLATE_OFFSET_MAX_DAYS = 36_500;

/** The message of a template past TEMPLATE_MAX_NODES. */
export function tooManyNodesMessage(count: number): string {
  return `A template holds at most ${TEMPLATE_MAX_NODES.toLocaleString('en-US')} items; this one has ${count.toLocaleString('en-US')}.`;
}

/** One item of a template: what it plans, its dates as days from the anchor, its children in order. */
export interface TemplateNode {
  type: ItemType;
  title: string;
  description: string | null;
  priority: number;
  labels: string[];
  estimate_minutes: number | null;
  recurrence: string | null;
  start_offset: number | null;
  due_offset: number | null;
  end_offset: number | null;
  children: TemplateNode[];
}

/** A template's tree: its top-level nodes in order. */
export interface TemplateTree {
  nodes: TemplateNode[];
}

const offsetField = z
  .union([
    z
      .number({ error: 'A date offset must be a whole number of days.' })
      .int('A date offset must be a whole number of days.')
      .min(-TEMPLATE_OFFSET_MAX_DAYS, 'A date lies too far before the anchor.')
      .max(TEMPLATE_OFFSET_MAX_DAYS, 'A date lies too far after the anchor.'),
    z.null(),
  ])
  .default(null);

/** A node's own fields, as a request may send them (absent ones read as none, priority as 4). */
const nodeFields = {
  type: z.enum(['campaign', 'task', 'todo'], { error: 'Must be campaign, task or todo.' }),
  title: FIELD_SCHEMAS.title,
  description: FIELD_SCHEMAS.description.default(null),
  priority: FIELD_SCHEMAS.priority.default(4),
  labels: FIELD_SCHEMAS.labels.default([]),
  estimate_minutes: FIELD_SCHEMAS.minutes.default(null),
  recurrence: FIELD_SCHEMAS.recurrence.default(null),
  start_offset: offsetField,
  due_offset: offsetField,
  end_offset: offsetField,
};

// Three levels at most (campaign → task → todo), so the node schema is spelled out level by level
// rather than recursive: the OpenAPI document needs no self-reference, and a body nested deeper is
// refused by shape before anything walks it.
const leafNode = z.strictObject({ ...nodeFields, children: z.array(z.never()).max(0).default([]) });
const middleNode = z.strictObject({ ...nodeFields, children: z.array(leafNode).default([]) });
const topNode = z.strictObject({ ...nodeFields, children: z.array(middleNode).default([]) });

/** Every node of a tree with its path ('0/2/1': indices from the top), parents before their children. */
export function walkTree(
  tree: TemplateTree,
): { node: TemplateNode; path: string; parent: TemplateNode | null }[] {
  const out: { node: TemplateNode; path: string; parent: TemplateNode | null }[] = [];
  const visit = (node: TemplateNode, path: string, parent: TemplateNode | null) => {
    out.push({ node, path, parent });
    for (const [i, child] of node.children.entries()) visit(child, `${path}/${i}`, node);
  };
  for (const [i, node] of tree.nodes.entries()) visit(node, String(i), null);
  return out;
}

/** How many nodes a tree holds. */
export function countNodes(tree: TemplateTree): number {
  let n = 0;
  const visit = (node: TemplateNode) => {
    n++;
    for (const child of node.children) visit(child);
  };
  for (const node of tree.nodes) visit(node);
  return n;
}

/** How many nodes of each type a tree holds (the picker's '3 tasks, 8 todos'). */
export function treeCounts(tree: TemplateTree): Record<ItemType, number> {
  const counts: Record<ItemType, number> = { campaign: 0, task: 0, todo: 0 };
  for (const { node } of walkTree(tree)) counts[node.type]++;
  return counts;
}

/** Why a tree cannot be a template of `kind` (null when it can): its top nodes' types. */
export function kindProblem(kind: TemplateKind, tree: TemplateTree): string | null {
  const tops = tree.nodes.map((n) => n.type);
  if (kind === 'checklist') {
    return tops.every((t) => t === 'todo') ? null : 'A checklist holds todos only.';
  }
  return tops.length === 1 && tops[0] === kind ? null : `A ${kind} template holds one ${kind} at its top.`;
}

/**
 * A template's tree as requests and the database carry it: at most TEMPLATE_MAX_NODES nodes, each
 * child of a type its parent may hold (./hierarchy.ts), never a start after its due date.
 */
export const templateTreeSchema = z
  .strictObject({
    nodes: z
      .array(topNode, { error: 'Must be a list of items.' })
      .min(1, 'A template holds at least one item.'),
  })
  .superRefine((tree, ctx) => {
    const count = countNodes(tree);
    if (count > TEMPLATE_MAX_NODES) {
      ctx.addIssue({ code: 'custom', message: tooManyNodesMessage(count), path: ['nodes'] });
      return;
    }
    for (const { node, path, parent } of walkTree(tree)) {
      const where = [
        'nodes',
        ...path.split('/').flatMap((p, i) => (i === 0 ? [Number(p)] : ['children', Number(p)])),
      ];
      if (parent && !(ALLOWED_PARENT_TYPES[node.type] as readonly ItemType[]).includes(parent.type)) {
        ctx.addIssue({
          code: 'custom',
          message: `A ${node.type} cannot be placed under a ${parent.type}.`,
          path: where,
        });
      }
      if (node.start_offset !== null && node.due_offset !== null && node.start_offset > node.due_offset) {
        ctx.addIssue({ code: 'custom', message: 'The start cannot come after the due date.', path: where });
      }
    }
  });

/** A template name: 1–100 characters on one line. */
const nameSchema = text('The name', 'The name is required.')
  .trim()
  .min(1, 'The name is required.')
  .max(TEMPLATE_NAME_MAX, `The name must be ${TEMPLATE_NAME_MAX} characters or less.`);

/** POST /api/templates: snapshot an item (its kind read from it, or 'checklist' for a task's todos). */
export const templateCreateSchema = z.strictObject({
  name: nameSchema,
  from_item_id: idSchema,
  kind: z.enum(TEMPLATE_KINDS, { error: 'Must be campaign, task or checklist.' }).optional(),
  /** The campaign to share it with; absent: the source's campaign when the caller may add to it. */
  campaign_id: z.union([idSchema, z.null()]).optional(),
  /** A device's own uuid for it: a repeat answers with the template made the first time. */
  uuid: z.uuid('Must be a UUID.').optional(),
});
export type TemplateCreate = z.output<typeof templateCreateSchema>;

/** PATCH /api/templates/{id}: the changed fields only. */
export const templatePatchSchema = z
  .strictObject({
    name: nameSchema.optional(),
    campaign_id: z.union([idSchema, z.null()]).optional(),
    tree: templateTreeSchema.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change.' });
export type TemplatePatch = z.output<typeof templatePatchSchema>;

/** POST /api/templates/{id}/instantiate. */
export const templateInstantiateSchema = z.strictObject({
  parent_id: z.union([idSchema, z.null()]).optional(),
  anchor_date: FIELD_SCHEMAS.date.refine((v) => v !== null, 'The anchor date is required.'),
  uuid: z.uuid('Must be a UUID.'),
});
export type TemplateInstantiate = z.output<typeof templateInstantiateSchema>;

export const templateIdParamsSchema = z.strictObject({ id: idSchema });

// The answers' shapes: plain types (no transforms), so the OpenAPI document can show them.
const answerFields = {
  type: z.enum(['campaign', 'task', 'todo']),
  title: z.string(),
  description: z.string().nullable(),
  priority: z.number().int(),
  labels: z.array(z.string()),
  estimate_minutes: z.number().int().nullable(),
  recurrence: z.string().nullable(),
  start_offset: z.number().int().nullable(),
  due_offset: z.number().int().nullable(),
  end_offset: z.number().int().nullable(),
};
const leafAnswer = z.strictObject({ ...answerFields, children: z.array(z.never()) });
const middleAnswer = z.strictObject({ ...answerFields, children: z.array(leafAnswer) });
const topAnswer = z.strictObject({ ...answerFields, children: z.array(middleAnswer) });

/** A template as the API sends it. */
export const templateAnswerSchema = z
  .strictObject({
    id: z.number().int(),
    uuid: z.string(),
    name: z.string(),
    kind: z.enum(TEMPLATE_KINDS),
    campaign_id: z.number().int().nullable(),
    tree: z.strictObject({ nodes: z.array(topAnswer) }),
    created_by: z.strictObject({ id: z.number().int(), name: z.string() }),
    updated_at: z.string(),
  })
  .meta({ id: 'Template' });
export type Template = z.output<typeof templateAnswerSchema>;

export const templateListAnswerSchema = z.strictObject({ templates: z.array(templateAnswerSchema) });

/** The UUID of the node at `path` ('0/2/1') of an instantiation requested with `requestUuid` (UUID v5). */
export function deriveUuid(requestUuid: string, path: string): string {
  return uuidV5(path, requestUuid);
}

/** An item as a snapshot reads it (the server's row, or the device's). */
export interface SnapshotItem {
  id: number;
  parent_id: number | null;
  type: ItemType;
  title: string;
  description: string | null;
  priority?: number;
  labels?: string[];
  estimate_minutes?: number | null;
  recurrence?: string | null;
  start_date?: string | null;
  due_date: string | null;
  end_date: string | null;
  sort_key?: string;
}

/** The anchor of a snapshot: its earliest start or due date (an end date only when there is neither). */
function anchorOf(items: readonly SnapshotItem[]): string | null {
  const days = items.flatMap((i) =>
    [i.start_date ?? null, i.due_date].filter((d): d is string => d !== null),
  );
  const pool = days.length > 0 ? days : items.flatMap((i) => (i.end_date ? [i.end_date] : []));
  return pool.reduce<string | null>((min, d) => (min === null || d < min ? d : min), null);
}

const bySortKey = (a: SnapshotItem, b: SnapshotItem) => {
  const ka = a.sort_key ?? '';
  const kb = b.sort_key ?? '';
  // Code unit order, as the column compares (server/items/order.ts); the id breaks a tie.
  return ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
};

/**
 * The tree of a template of `kind` made from `root` and its live descendants (`items`, in any order,
 * may include the root): a checklist holds the root task's todos only. Siblings keep their order
 * (sort_key); dates become whole days from the anchor (anchorOf).
 */
export function snapshotTree(
  root: SnapshotItem,
  items: readonly SnapshotItem[],
  kind: TemplateKind,
): TemplateTree {
  const children = new Map<number, SnapshotItem[]>();
  for (const item of items) {
    if (item.id === root.id || item.parent_id === null) continue;
    const list = children.get(item.parent_id) ?? [];
    list.push(item);
    children.set(item.parent_id, list);
  }
  for (const list of children.values()) list.sort(bySortKey);
  const tops = kind === 'checklist' ? (children.get(root.id) ?? []).filter((i) => i.type === 'todo') : [root];
  const included: SnapshotItem[] = [];
  const collect = (item: SnapshotItem) => {
    included.push(item);
    for (const child of children.get(item.id) ?? []) collect(child);
  };
  for (const top of tops) collect(top);
  const anchor = anchorOf(included);
  const offset = (day: string | null | undefined) =>
    day == null || anchor === null ? null : daysBetween(anchor, day);
  const toNode = (item: SnapshotItem): TemplateNode => ({
    type: item.type,
    title: item.title,
    description: item.description,
    priority: item.priority ?? 4,
    labels: [...(item.labels ?? [])],
    estimate_minutes: item.estimate_minutes ?? null,
    recurrence: item.recurrence ?? null,
    start_offset: offset(item.start_date),
    due_offset: offset(item.due_date),
    end_offset: offset(item.end_date),
    children: (children.get(item.id) ?? []).map(toNode),
  });
  return { nodes: tops.map(toNode) };
}

/** One create of an instantiation, as POST /api/items/batch takes it (parents first). */
export type TemplateCreateEntry = z.input<typeof itemBatchEntrySchema>;

/**
 * The creates of one instantiation of `tree`, parents before children and siblings in the template's
 * order: every date `anchorDate` plus its offset, every uuid derived from `requestUuid` and the node's
 * path, the top nodes under `parentId` (or at the top level), each child under its parent's uuid.
 * Status, assignees and order keys are left to the create (pending, none, after the last sibling).
 */
export function instantiateEntries(
  tree: TemplateTree,
  options: { anchorDate: string; requestUuid: string; parentId: number | null },
): TemplateCreateEntry[] {
  const at = (offset: number | null) => (offset === null ? null : addDays(options.anchorDate, offset));
  return walkTree(tree).map(({ node, path }) => {
    const cut = path.lastIndexOf('/');
    const parent =
      cut === -1
        ? { parent_id: options.parentId }
        : { parent_uuid: deriveUuid(options.requestUuid, path.slice(0, cut)) };
    return {
      uuid: deriveUuid(options.requestUuid, path),
      type: node.type,
      title: node.title,
      description: node.description,
      priority: node.priority as TemplateCreateEntry['priority'],
      labels: node.labels,
      estimate_minutes: node.estimate_minutes,
      recurrence: node.recurrence,
      start_date: at(node.start_offset),
      due_date: at(node.due_offset),
      end_date: at(node.end_offset),
      ...parent,
    };
  });
}
