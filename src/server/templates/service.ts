import { randomUUID } from 'node:crypto';
import { fieldErrors, type ItemBatchEntry, itemBatchEntrySchema } from '../../shared/schemas';
import {
  countNodes,
  instantiateEntries,
  kindProblem,
  snapshotTree,
  TEMPLATE_MAX_NODES,
  type Template,
  type TemplateCreate,
  type TemplateInstantiate,
  type TemplateKind,
  type TemplatePatch,
  templateTreeSchema,
  tooManyNodesMessage,
} from '../../shared/templates';
import type { UserRow } from '../auth/users';
import { roleInFamily } from '../campaigns/access';
import { campaignsToTell as sharedWith } from '../campaigns/sharedLists';
import type { Executor } from '../db/client';
import { HttpError, notFound, unprocessable } from '../http/errors';
import type { WriteResult } from '../http/idempotency';
import { createItemsBatch } from '../items/batch';
import { findVisibleItem } from '../items/queries';
import {
  countDescendants,
  familyTop,
  insertTemplate,
  listVisibleTemplates,
  lockTemplate,
  ownTemplateByUuid,
  softDeleteTemplate,
  type TemplateRow,
  templateJson,
  updateTemplate,
  visibleDescendants,
  visibleTemplateById,
} from './store';

/** The 403 of someone who sees a template but may not change it. */
export const TEMPLATE_EDIT_FORBIDDEN =
  'Only its creator, or the owner and editors of its campaign, may change this template.';
/** The 403 of a viewer sharing a template with their campaign. */
export const TEMPLATE_SHARE_FORBIDDEN =
  'Only the owner and editors of a campaign may share templates with it.';

const notSeen = () => notFound('Template');

/** Whether `role` in a campaign may add to it (and so share and edit its templates). */
const editsIn = (role: string | null) => role === 'owner' || role === 'editor';

/** The campaign a template is shared with, checked: a live campaign the actor sees and may add to. */
async function shareableCampaign(tx: Executor, actor: UserRow, campaignId: number): Promise<number> {
  const campaign = await findVisibleItem(tx, actor.id, campaignId);
  if (campaign?.type !== 'campaign') {
    throw unprocessable({ campaign_id: ['No such campaign, or not one you can open.'] });
  }
  if (!editsIn(await roleInFamily(tx, actor.id, campaignId)))
    throw new HttpError(403, TEMPLATE_SHARE_FORBIDDEN);
  return campaignId;
}

/** Whether the actor may change or delete the template: its creator, or its campaign's owner or an editor. */
async function mayEdit(tx: Executor, actor: UserRow, row: TemplateRow): Promise<boolean> {
  if (row.user_id === actor.id) return true;
  return row.campaign_id !== null && editsIn(await roleInFamily(tx, actor.id, row.campaign_id));
}

/** The template `id` answered as the actor sees it. */
async function answerTemplate(
  tx: Executor,
  actor: UserRow,
  id: number,
  status: number,
): Promise<WriteResult> {
  const row = await visibleTemplateById(tx, actor.id, id);
  if (!row) throw notSeen();
  return { status, body: templateJson(row), campaigns: sharedWith(row.campaign_id) };
}

/** The kind a template of `item` is, as asked (or read from the item), or the 422 of a mismatch. */
function kindFor(type: string, asked: TemplateKind | undefined): TemplateKind {
  if (type === 'campaign' && (asked === undefined || asked === 'campaign')) return 'campaign';
  if (type === 'task' && (asked === undefined || asked === 'task' || asked === 'checklist'))
    return asked ?? 'task';
  if (type === 'todo')
    throw unprocessable({ from_item_id: ['A template is made from a campaign or a task.'] });
  throw unprocessable({
    kind: [`A ${type} makes a ${type === 'campaign' ? 'campaign' : 'task or checklist'} template.`],
  });
}

/**
 * Snapshots an item the actor sees, with its live descendants they see, into a new template (a
 * repeat of the actor's own `uuid` answers the template made the first time). Shared with the
 * source's campaign when the actor may add to it, unless `campaign_id` says otherwise.
 */
export async function createTemplate(
  tx: Executor,
  actor: UserRow,
  input: TemplateCreate,
): Promise<WriteResult> {
  if (input.uuid) {
    const known = await ownTemplateByUuid(tx, actor.id, input.uuid);
    if (known && !known.deleted) return answerTemplate(tx, actor, known.id, 200);
    if (known) throw unprocessable({ uuid: ['A deleted template had this uuid.'] });
  }
  const item = await findVisibleItem(tx, actor.id, input.from_item_id);
  if (!item || item.deleted_at !== null) {
    throw unprocessable({ from_item_id: ['No such item, or not one you can open.'] });
  }
  const kind = kindFor(item.type, input.kind);
  // A campaign or a task holds at most 5,000 items: counted before any is read.
  const below = await countDescendants(tx, item.id);
  if (kind !== 'checklist' && below + 1 > TEMPLATE_MAX_NODES) {
    throw unprocessable({ from_item_id: [tooManyNodesMessage(below + 1)] });
  }
  const tree = snapshotTree(item, await visibleDescendants(tx, actor.id, item.id), kind);
  const nodeCount = countNodes(tree);
  if (nodeCount > TEMPLATE_MAX_NODES) throw unprocessable({ from_item_id: [tooManyNodesMessage(nodeCount)] });
  if (nodeCount === 0)
    throw unprocessable({ from_item_id: ['This task has no todos to make a checklist of.'] });
  // Held to the contract on the way in, as a PATCH's tree is.
  const parsed = templateTreeSchema.safeParse(tree);
  if (!parsed.success) throw unprocessable(fieldErrors(parsed.error));

  let campaignId: number | null = null;
  if (input.campaign_id != null) campaignId = await shareableCampaign(tx, actor, input.campaign_id);
  else if (input.campaign_id === undefined) {
    const top = await familyTop(tx, item.id);
    if (top?.type === 'campaign' && editsIn(await roleInFamily(tx, actor.id, top.id))) campaignId = top.id;
  }
  const uuid = input.uuid ?? randomUUID();
  const id = await insertTemplate(tx, {
    uuid,
    userId: actor.id,
    campaignId,
    name: input.name,
    kind,
    tree: parsed.data,
    nodeCount,
  });
  if (id === null) {
    // A concurrent create with the same uuid won: answer with its template.
    const known = await ownTemplateByUuid(tx, actor.id, uuid);
    if (!known || known.deleted) throw unprocessable({ uuid: ['A deleted template had this uuid.'] });
    return answerTemplate(tx, actor, known.id, 200);
  }
  return answerTemplate(tx, actor, id, 201);
}

/** Every template the actor sees: their own and those shared with their campaigns. */
export async function listTemplates(tx: Executor, actor: UserRow): Promise<Template[]> {
  return (await listVisibleTemplates(tx, actor.id)).map(templateJson);
}

/** The template for a change: 404 unseen, 403 seen but not the actor's to change; locked. */
async function editableTemplate(tx: Executor, actor: UserRow, id: number): Promise<TemplateRow> {
  const row = await visibleTemplateById(tx, actor.id, id);
  if (!row) throw notSeen();
  if (!(await mayEdit(tx, actor, row))) throw new HttpError(403, TEMPLATE_EDIT_FORBIDDEN);
  await lockTemplate(tx, id);
  return row;
}

/** Renames a template, shares or unshares it, or replaces its tree (of the same kind). */
export async function patchTemplate(
  tx: Executor,
  actor: UserRow,
  id: number,
  patch: TemplatePatch,
): Promise<WriteResult> {
  const row = await editableTemplate(tx, actor, id);
  let nodeCount: number | undefined;
  if (patch.tree !== undefined) {
    const problem = kindProblem(row.kind, patch.tree);
    if (problem) throw unprocessable({ tree: [problem] });
    nodeCount = countNodes(patch.tree);
  }
  const campaignId =
    patch.campaign_id == null ? patch.campaign_id : await shareableCampaign(tx, actor, patch.campaign_id);
  await updateTemplate(tx, id, {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(campaignId !== undefined ? { campaignId } : {}),
    ...(patch.tree !== undefined ? { tree: patch.tree, nodeCount } : {}),
  });
  // Unshared by someone other than its creator, it may be out of their sight now: answer as it is.
  const after = await visibleTemplateById(tx, actor.id, id);
  return {
    status: 200,
    body: after ? templateJson(after) : templateJson({ ...row, campaign_id: null }),
    campaigns: sharedWith(row.campaign_id, campaignId),
  };
}

/** Deletes a template (a tombstone stays for devices). */
export async function deleteTemplate(tx: Executor, actor: UserRow, id: number): Promise<WriteResult> {
  const row = await editableTemplate(tx, actor, id);
  await softDeleteTemplate(tx, id);
  return { status: 204, body: null, campaigns: sharedWith(row.campaign_id) };
}

/**
 * Creates the template's whole tree in the caller's transaction through the items' batch create (so
 * the create rules, caps, history, notifications, webhooks and sync are the items' own), every date
 * shifted to the anchor, every uuid derived from the request's: a repeat finds the items made the
 * first time and creates nothing (200).
 */
export async function instantiateTemplate(
  tx: Executor,
  actor: UserRow,
  id: number,
  input: TemplateInstantiate,
  userMaxItems: number,
): Promise<WriteResult> {
  const row = await visibleTemplateById(tx, actor.id, id);
  if (!row) throw notSeen();
  const parentId = input.parent_id ?? null;
  if (row.kind === 'checklist' && parentId === null) {
    throw unprocessable({ parent_id: ['A checklist is added to a task: name the task.'] });
  }
  if (row.kind === 'campaign' && parentId !== null) {
    throw unprocessable({ parent_id: ['A campaign cannot have a parent.'] });
  }
  const tree = templateJson(row).tree;
  const entries: ItemBatchEntry[] = instantiateEntries(tree, {
    anchorDate: input.anchor_date as string,
    requestUuid: input.uuid,
    parentId,
  }).map((entry, index) => {
    const parsed = itemBatchEntrySchema.safeParse(entry);
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const [field, messages] of Object.entries(fieldErrors(parsed.error)))
        errors[`items.${index}.${field}`] = messages;
      throw unprocessable(errors);
    }
    return parsed.data;
  });
  return createItemsBatch(tx, actor, entries, userMaxItems);
}
