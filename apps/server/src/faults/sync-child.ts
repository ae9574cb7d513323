import { loadEnv } from '../config/env';
import { createDb } from '../db/client';
import { migrateToLatest } from '../db/migrate';
import { createCipher } from '../lib/crypto';
import { loadSecrets } from '../lib/secrets';
import { createOandaClient } from '../integrations/oanda/oanda-client';
import { createSettingsRepository } from '../modules/settings/settings.repository';
import { createSettingsService } from '../modules/settings/settings.service';
import { createTradingService } from '../modules/trading/trading.service';

/*
 * One trade sync of one user, as the Sync button runs it, in a process of its own (faults/process.test.ts kills
 * it at random points): the services wired as app.ts wires them, without the HTTP server around them, so that
 * the process starts fast enough to be killed twenty times. Prints the result as one JSON line.
 */

const env = loadEnv();
const userId = process.env.SYNC_USER_ID;
if (!userId) throw new Error('SYNC_USER_ID is not set');
const db = createDb({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
await migrateToLatest(db);
const now = () => new Date();
const settings = createSettingsService({
  info: createSettingsRepository(db.kysely),
  cipher: createCipher(loadSecrets(env).encryptionKey),
  now,
});
const oanda = createOandaClient({ practiceUrl: env.OANDA_PRACTICE_URL, liveUrl: env.OANDA_LIVE_URL });
const trading = createTradingService({ db: db.kysely, oanda, settings, now });
console.log('sync started');
console.log(JSON.stringify(await trading.syncTrades(userId)));
await oanda.close();
await db.close();
