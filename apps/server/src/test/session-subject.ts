/** The user id of a session token (its subject), for tests that look at the scheduler's calls. */
export const userIdOf = (jwt: string): string =>
  (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
