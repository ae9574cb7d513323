import { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import type { SessionClaims } from '../../plugins/auth';
import type { AuthTables } from './tables';

/** How long an instance trusts what it read of a user's sessions without hearing of a change. */
const SESSION_CACHE_TTL_MS = 30_000;
/** Users whose sessions one instance keeps in memory (the least recently loaded are dropped beyond this). */
const MAX_CACHED_USERS = 20_000;
const CHANNEL = 'pipsense:sessions:revoked';

interface Entry {
  /** null: the user does not exist (deleted). */
  version: number | null;
  revoked: ReadonlySet<string>;
  loadedAt: number;
}

export interface SessionGuardOptions {
  db: Kysely<AuthTables>;
  now: () => Date;
  /** Several instances: a revocation is published here and every instance drops its copy at once. */
  redisUrl?: string | undefined;
  ttlMs?: number;
  log: { warn(details: object, message: string): void };
}

/**
 * Which signed tokens are still live sessions (SECURITY.md, Stolen or forged session tokens). A token names its user,
 * its session version (`sv`) and its id (`jti`); it is live while the user exists, the version is the user's current
 * one and the id was not signed out. Each instance keeps what it read per user in memory for `ttlMs` (30 s), so a
 * request costs no database round trip; a revocation drops the copy in this instance at once, and in every other
 * instance through Redis pub/sub when REDIS_URL is set. Without Redis, another instance sees it within `ttlMs`.
 */
export function createSessionGuard({ db, now, redisUrl, ttlMs = SESSION_CACHE_TTL_MS, log }: SessionGuardOptions) {
  const cache = new Map<string, Entry>();
  const loading = new Map<string, Promise<Entry>>();

  const drop = (userId: string) => {
    cache.delete(userId);
    loading.delete(userId);
  };

  const publisher = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 }) : undefined;
  const subscriber = redisUrl ? new Redis(redisUrl, { connectTimeout: 2000 }) : undefined;
  const ready = subscriber
    ? subscriber.subscribe(CHANNEL).then(
        () => undefined,
        (error: unknown) =>
          log.warn({ err: error }, 'session revocations (Redis) unavailable; relying on the 30 s cache'),
      )
    : Promise.resolve();
  for (const client of [publisher, subscriber])
    client?.on('error', (error: Error) => log.warn({ err: error }, 'session revocations (Redis) unavailable'));
  subscriber?.on('message', (channel: string, userId: string) => {
    if (channel === CHANNEL) drop(userId);
  });

  async function read(userId: string): Promise<Entry> {
    const at = now();
    const user = await db.selectFrom('users').select('session_version').where('id', '=', userId).executeTakeFirst();
    const revoked = user
      ? await db
          .selectFrom('revoked_tokens')
          .select('jti')
          .where('user_id', '=', userId)
          .where('expires_at', '>', at.toISOString())
          .execute()
      : [];
    return {
      version: user ? Number(user.session_version) : null,
      revoked: new Set(revoked.map((r) => r.jti)),
      loadedAt: at.getTime(),
    };
  }

  function entryOf(userId: string): Entry | Promise<Entry> {
    const cached = cache.get(userId);
    if (cached && now().getTime() - cached.loadedAt < ttlMs) return cached;
    const pending = loading.get(userId);
    if (pending) return pending;
    const load = read(userId).then((entry) => {
      // A revocation while reading dropped this load: its result may be older than the revocation.
      if (loading.get(userId) === load) {
        loading.delete(userId);
        cache.delete(userId);
        cache.set(userId, entry);
        if (cache.size > MAX_CACHED_USERS) cache.delete(cache.keys().next().value!);
      }
      return entry;
    });
    loading.set(userId, load);
    // A failed read is not cached; the request fails with it (500), and the next one reads again.
    load.catch(() => loading.get(userId) === load && loading.delete(userId));
    return load;
  }

  /** Drops every instance's copy of this user's sessions (this one at once, the others through Redis). */
  async function changed(userId: string): Promise<void> {
    drop(userId);
    if (!publisher) return;
    try {
      await publisher.publish(CHANNEL, userId);
    } catch (error) {
      log.warn({ err: error }, 'session revocation not published (Redis); other instances see it within 30 s');
    }
  }

  const isLiveEntry = (entry: Entry, claims: SessionClaims) =>
    entry.version !== null && entry.version === claims.version && !entry.revoked.has(claims.tokenId);

  return {
    /** Resolves once the Redis subscription is in place (at once without Redis). */
    ready: () => ready,

    /** Is this verified token still a live session? From memory unless this user's copy is older than the TTL. */
    isLive(claims: SessionClaims): boolean | Promise<boolean> {
      const entry = entryOf(claims.userId);
      return entry instanceof Promise ? entry.then((e) => isLiveEntry(e, claims)) : isLiveEntry(entry, claims);
    },

    /** Signs out one token (logout) until its own expiry (`exp`, in seconds). */
    async revokeToken(userId: string, tokenId: string, exp: number): Promise<void> {
      const at = now().toISOString();
      await db
        .insertInto('revoked_tokens')
        .values({ jti: tokenId, user_id: userId, expires_at: new Date(exp * 1000).toISOString() })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
      await db.deleteFrom('revoked_tokens').where('expires_at', '<=', at).execute();
      await changed(userId);
    },

    /** Ends every session of the user (log out everywhere); answers the new session version. */
    async revokeAll(userId: string): Promise<number> {
      await db
        .updateTable('users')
        .set({ session_version: sql<number>`session_version + 1` })
        .where('id', '=', userId)
        .execute();
      await changed(userId);
      const row = await db.selectFrom('users').select('session_version').where('id', '=', userId).executeTakeFirst();
      return Number(row?.session_version ?? 0);
    },

    /** The user's sessions changed in the database (password, deletion): every instance reads them again. */
    changed,

    async close(): Promise<void> {
      for (const client of [publisher, subscriber]) await client?.quit().catch(() => undefined);
    },
  };
}
export type SessionGuard = ReturnType<typeof createSessionGuard>;
