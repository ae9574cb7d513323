import type { Env } from './config/env';
import type { Db } from './db/client';
import type { Cipher } from './lib/crypto';

/** What every module is built from; created once in app.ts. */
export interface AppContext {
  env: Env;
  db: Db;
  cipher: Cipher;
  now: () => Date;
}
