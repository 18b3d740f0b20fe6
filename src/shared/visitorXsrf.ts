/**
 * A visitor's anti-forgery token (a session nobody has signed in to) is marked so scripts can tell it
 * from a signed-in one: the client then asks no GET /api/me, which could only answer 401 (the
 * tutorial's code request fetches the cookie before the sign-in). A signed-in token is base64url, so
 * it never holds the mark's dot.
 */
export const VISITOR_XSRF_PREFIX = 'v.';

/** Whether an XSRF-TOKEN value is a visitor's, so no account is signed in behind it. */
export function isVisitorXsrf(token: string): boolean {
  return token.startsWith(VISITOR_XSRF_PREFIX);
}
