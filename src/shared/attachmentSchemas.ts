import { z } from 'zod';

/** `POST /api/items/{id}/attachments?uuid=`: the file's uuid may ride in the query as well as in the form. */
export const attachmentUploadQuerySchema = z.strictObject({
  uuid: z.uuid('Must be a UUID.').optional(),
});

/** The `uuid` field of an upload's form, checked as the query's is. */
export const attachmentUuidSchema = z.uuid('Must be a UUID.');

/** An upload's form as the API documents it: one file part, and the uuid the device named the file by. */
export const attachmentUploadFormSchema = z.object({
  file: z
    .string()
    .meta({ format: 'binary' })
    .describe(
      'The file: its bytes decide its type, never the part’s Content-Type or the name’s extension. Its name (the part’s filename) is kept, cleaned, to 255 characters.',
    ),
  uuid: z
    .uuid()
    .optional()
    .describe(
      'The device’s name for the file: the same uuid again answers the first upload (200) and stores nothing more. Before or after the file part, or as `?uuid=`.',
    ),
});
