/**
 * How a file's bytes travel (SYNC.md A2, A4): one multipart POST, `file` and the device's `uuid` (in
 * the query too: a retried or resumed upload is the same upload, A4), with the anti-forgery header
 * and the session's cookies as every API write. In a page, XMLHttpRequest, whose upload reports
 * progress; elsewhere (a test's device, with its own cookie jar) the fetch it was given.
 */
import { type FetchLike, parseRetryAfter } from '../net/apiClient';

export interface FileRequest {
  /** The path from the API's origin: `/api/items/{id}/attachments?uuid=…`. */
  path: string;
  blob: Blob;
  name: string;
  uuid: string;
  /** Bytes sent so far (XMLHttpRequest only). */
  onProgress?: (loaded: number) => void;
}

/** The server's answer; `status` 0 when none arrived (the network). */
export interface FileAnswer {
  status: number;
  data: unknown;
  /** Seconds of a 429's Retry-After. */
  retryAfter: number | null;
}

export type SendFile = (request: FileRequest) => Promise<FileAnswer>;

/** What a transport needs of the session: the anti-forgery token, and who to tell of a 401. */
export interface TransportSession {
  baseUrl: string;
  xsrfToken: () => string | null;
  /** The auth store's epoch as the request leaves, and its 401 handler (as the API client's). */
  authEpoch?: () => number;
  onUnauthorized?: (sentAt: number | undefined) => void | Promise<void>;
}

function formOf(request: FileRequest): FormData {
  const form = new FormData();
  // The uuid before the file: a server reading the stream meets it first.
  form.append('uuid', request.uuid);
  form.append('file', request.blob, request.name);
  return form;
}

function headersOf(session: TransportSession): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = session.xsrfToken();
  if (token) headers['X-XSRF-TOKEN'] = token;
  return headers;
}

function parse(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A 401 told to the auth store, as the API client tells it (the device turns guest: Q4). */
async function told(session: TransportSession, answer: FileAnswer, sentAt: number | undefined) {
  if (answer.status === 401) await session.onUnauthorized?.(sentAt);
  return answer;
}

/** Sends through `fetch` (no progress until the answer). */
export function fetchTransport(fetch: FetchLike, session: TransportSession): SendFile {
  return async (request) => {
    const sentAt = session.authEpoch?.();
    let response: Response;
    try {
      response = await fetch(`${session.baseUrl}${request.path}`, {
        method: 'POST',
        headers: headersOf(session),
        credentials: 'include',
        body: formOf(request),
      });
    } catch {
      return { status: 0, data: null, retryAfter: null };
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      return { status: 0, data: null, retryAfter: null };
    }
    request.onProgress?.(request.blob.size);
    return told(
      session,
      {
        status: response.status,
        data: parse(text),
        retryAfter: parseRetryAfter(response.headers.get('Retry-After')),
      },
      sentAt,
    );
  };
}

/** Sends with XMLHttpRequest, whose upload events give the bytes sent so far. */
export function xhrTransport(session: TransportSession): SendFile {
  return (request) =>
    new Promise<FileAnswer>((resolve) => {
      const sentAt = session.authEpoch?.();
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${session.baseUrl}${request.path}`);
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(headersOf(session))) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => request.onProgress?.(event.loaded);
      const none = () => resolve({ status: 0, data: null, retryAfter: null });
      xhr.onerror = none;
      xhr.onabort = none;
      xhr.ontimeout = none;
      xhr.onload = () => {
        const answer: FileAnswer = {
          status: xhr.status,
          data: parse(xhr.responseText),
          retryAfter: parseRetryAfter(xhr.getResponseHeader('Retry-After')),
        };
        void told(session, answer, sentAt).then(resolve, () => resolve(answer));
      };
      xhr.send(formOf(request));
    });
}

/**
 * The transport of a client: a page on its own origin sends with XMLHttpRequest (progress); a client
 * talking to a server elsewhere through a fetch of its own (a test's device) sends with that fetch.
 */
export function transportFor(fetch: FetchLike, session: TransportSession): SendFile {
  return typeof XMLHttpRequest === 'function' && session.baseUrl === ''
    ? xhrTransport(session)
    : fetchTransport(fetch, session);
}
