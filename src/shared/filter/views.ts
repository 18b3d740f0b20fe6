import { z } from 'zod';
import { idSchema, text } from '../schemas';
import { FILTER_MAX_LENGTH } from './ast';
import { FILTER_GRAMMAR, parse } from './index';
import { FILTER_GRAMMAR_LEGACY, migrateSavedQuery } from './migrations';

/**
 * Saved views (ARCHITECTURE §4 'Saved views and the filter language'): a named query in the filter
 * language, personal or shared with a campaign's members, the contract of `/api/views`.
 */

/** How a view orders what matches. */
export const VIEW_SORTS = ['due', 'priority', 'title', 'manual'] as const;
export type ViewSort = (typeof VIEW_SORTS)[number];

/** The longest view name. */
export const VIEW_NAME_MAX = 100;

const nameSchema = text('The name', 'The name is required.')
  .trim()
  .min(1, 'The name is required.')
  .max(VIEW_NAME_MAX, `The name must be ${VIEW_NAME_MAX} characters or less.`);

/** A query: text the filter language parses (the message names the column, as the field shows it). */
const querySchema = text('The query', 'The query is required.')
  .max(FILTER_MAX_LENGTH, `The query must be ${FILTER_MAX_LENGTH} characters or less.`)
  .superRefine((query, ctx) => {
    if (query.trim() === '') {
      ctx.addIssue({ code: 'custom', message: 'The query is required.' });
      return;
    }
    const parsed = parse(query);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error.message });
  });

const sortSchema = z.enum(VIEW_SORTS, { error: 'Must be due, priority, title or manual.' });

/** POST /api/views. */
export const viewCreateSchema = z
  .strictObject({
    name: nameSchema,
    /** Written under `grammar` (default the current one); kept brought to the current grammar. */
    query: z.string({ error: 'The query is required.' }),
    grammar: z.number().int().min(FILTER_GRAMMAR_LEGACY).max(FILTER_GRAMMAR).optional(),
    sort: sortSchema.default('due'),
    /** The campaign whose members share it; absent or null: the creator's own. */
    campaign_id: z.union([idSchema, z.null()]).optional(),
    /** A device's own uuid for it: a repeat answers with the view made the first time. */
    uuid: z.uuid('Must be a UUID.').optional(),
  })
  .transform((v, ctx) => {
    const query = migrateSavedQuery(v.query, v.grammar ?? FILTER_GRAMMAR);
    const checked = querySchema.safeParse(query);
    if (!checked.success) {
      for (const issue of checked.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message, path: ['query'] });
      return z.NEVER;
    }
    return { name: v.name, query, sort: v.sort, campaign_id: v.campaign_id, uuid: v.uuid };
  });
export type ViewCreate = z.output<typeof viewCreateSchema>;

/** PATCH /api/views/{id}: the changed fields only (a query in the current grammar). */
export const viewPatchSchema = z
  .strictObject({
    name: nameSchema.optional(),
    query: querySchema.optional(),
    sort: sortSchema.optional(),
    campaign_id: z.union([idSchema, z.null()]).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change.' });
export type ViewPatch = z.output<typeof viewPatchSchema>;

/** A view as the API sends it: its query always in the current grammar. */
export const viewAnswerSchema = z
  .strictObject({
    id: z.number().int(),
    uuid: z.string(),
    name: z.string(),
    query: z.string(),
    grammar: z.number().int(),
    sort: z.enum(VIEW_SORTS),
    campaign_id: z.number().int().nullable(),
    created_by: z.strictObject({ id: z.number().int(), name: z.string() }),
    updated_at: z.string(),
  })
  .meta({ id: 'View' });
export type View = z.output<typeof viewAnswerSchema>;

export const viewListAnswerSchema = z.strictObject({ views: z.array(viewAnswerSchema) });
