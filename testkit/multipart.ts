import type { FastifyInstance } from 'fastify';
import type { TestClient, TestResponse } from './testClient';

/** One part of a multipart form, in the order it is sent. */
export type FormPart =
  | { field: string; value: string }
  | { file: string; bytes: Uint8Array; name: string; type?: string };

/**
 * A multipart/form-data body as a browser's FormData makes it (through the platform's own encoder:
 * a Response of a FormData), and its Content-Type with the boundary.
 */
export async function multipartBody(parts: readonly FormPart[]): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const part of parts) {
    if ('field' in part) form.append(part.field, part.value);
    else
      form.append(
        part.file,
        new Blob([part.bytes as Uint8Array<ArrayBuffer>], { type: part.type ?? 'application/octet-stream' }),
        part.name,
      );
  }
  const response = new Response(form);
  return {
    body: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get('content-type') ?? '',
  };
}

/**
 * Posts a multipart form as `client` through `app.inject`, with its cookies and anti-forgery header
 * (as TestClient does for JSON), and parses a JSON answer.
 */
export async function postMultipart<T = unknown>(
  app: FastifyInstance,
  client: TestClient | null,
  url: string,
  parts: readonly FormPart[],
  headers: Record<string, string> = {},
): Promise<TestResponse<T>> {
  const { body, type } = await multipartBody(parts);
  const sent: Record<string, string> = { accept: 'application/json', 'content-type': type };
  if (client && client.jar.size > 0) sent.cookie = client.cookieHeader();
  const token = client?.jar.get('XSRF-TOKEN');
  if (token) sent['x-xsrf-token'] = decodeURIComponent(token);
  Object.assign(sent, headers);
  const response = await app.inject({ method: 'POST', url, headers: sent, payload: body });
  const contentType = String(response.headers['content-type'] ?? '');
  const parsed =
    contentType.includes('application/json') && response.body.length > 0
      ? JSON.parse(response.body)
      : undefined;
  return { status: response.statusCode, body: parsed as T, text: response.body, headers: response.headers };
}
