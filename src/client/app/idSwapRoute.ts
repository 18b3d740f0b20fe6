/**
 * The path an open detail route should move to when the item it shows got its server id, or null
 * when the route is about another item (ARCHITECTURE §6: the temporary id is replaced everywhere).
 */
export function swappedPath(pathname: string, oldId: number, newId: number): string | null {
  const match = /^\/(tasks|todos|campaigns)\/(-?\d+)\/?$/.exec(pathname);
  if (!match || Number(match[2]) !== oldId) return null;
  return `/${match[1]}/${newId}`;
}
