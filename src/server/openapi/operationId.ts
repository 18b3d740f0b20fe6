const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

/** A route pattern's words: `/api/items/:id/time_entries.csv` → Items, ById, TimeEntries, Csv. */
function words(url: string): string[] {
  return url
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = segment.startsWith(':');
      const name = segment
        .slice(param ? 1 : 0)
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map(pascal)
        .join('');
      return param ? `By${name}` : name;
    });
}

/**
 * The `operationId` of a route, from its method and pattern alone so it never changes while the
 * route does not: `GET /api/items/:id/comments` → `getItemsByIdComments` (the `/api` prefix left
 * out, a parameter as `By{Name}`). openapi.test.ts holds them unique across the document.
 */
export function operationIdOf(method: string, url: string): string {
  return `${method.toLowerCase()}${words(url).join('')}`;
}

/** The `operationId` of a webhook event's delivery: `member.updated` → `onMemberUpdated`. */
export function webhookOperationIdOf(event: string): string {
  return `on${event
    .split(/[^A-Za-z0-9]+/)
    .map(pascal)
    .join('')}`;
}
