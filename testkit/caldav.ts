import { expect } from 'vitest';
import type { ApiTokenCreated, TokenScope } from '../src/shared/tokens';
import type { TestClient } from './testClient';

/** A personal access token for `owner`, caldav-scoped unless `scopes` says otherwise. */
export async function mintToken(
  owner: TestClient,
  scopes: TokenScope[] = ['caldav'],
  name = 'Phone',
): Promise<string> {
  const response = await owner.post<ApiTokenCreated>('/api/tokens', { name, scopes });
  expect(response.status, response.text).toBe(201);
  return response.body.token;
}

/** A VCALENDAR holding one VTODO as a client writes it (CRLF lines), with `lines` inside the VTODO. */
export function vtodoCalendar(uid: string, lines: readonly string[], prodid = '-//Test Phone//EN'): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${prodid}`,
    'BEGIN:VTODO',
    `UID:${uid}`,
    'DTSTAMP:20261129T100000Z',
    ...lines,
    'END:VTODO',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
