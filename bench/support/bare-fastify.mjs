// The yardstick of bench/api.bench.ts: a bare Fastify from the project's own node_modules, no plugins, no logger.
// `GET /hello` answers a small JSON object; with BARE_PG_URL set, `GET /pg?user=…` runs one `pg` query (the newest
// 10 trades of a user, as the trade list's page reads them) through a pool and answers the rows.
// With BARE_SAME set (a JSON file: the app's SQLite file, the user, and the headers and bodies the app answered),
// `/same/healthz`, `/same/me` and `/same/list` send what the app sends for those routes, headers included, doing the
// same database read (the profile row; the list version, the page's bytes as the app cached them) and nothing else:
// no token, no hooks, no validation. Prints `{"port": n}` on stdout once listening.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const app = Fastify({ logger: false });
app.get('/hello', () => ({ success: true, message: 'ok' }));
const url = process.env.BARE_PG_URL;
if (url) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  app.addHook('onClose', () => pool.end());
  app.get('/pg', async (request) => {
    const { rows } = await pool.query(
      'SELECT * FROM trades WHERE user_id = $1 AND platform = $2 ORDER BY open_time DESC, trade_num DESC, account_key DESC LIMIT 10',
      [request.query.user, 'oanda'],
    );
    return { success: true, data: rows };
  });
}
if (process.env.BARE_SAME) {
  const same = JSON.parse(readFileSync(process.env.BARE_SAME, 'utf8'));
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(same.sqliteFile, { readonly: true, fileMustExist: true });
  app.addHook('onClose', () => db.close());
  const profile = db.prepare('select username, email, email_confirmed_at from users where id = ?');
  const version = db.prepare('select version, journal_version, list_version from data_versions where user_id = ?');
  const listBody = Buffer.from(same.list.body, 'base64');
  app.get('/same/healthz', (_request, reply) => reply.headers(same.health.headers).send(same.health.body));
  app.get('/same/me', (_request, reply) => {
    const row = profile.get(same.userId);
    const data = { username: row.username, email: row.email, emailConfirmed: row.email_confirmed_at !== null };
    return reply.headers(same.me.headers).send(JSON.stringify({ success: true, message: 'Profile loaded.', data }));
  });
  app.get('/same/list', (_request, reply) => {
    if (!version.get(same.userId)) throw new Error('no data version');
    return reply.headers(same.list.headers).send(listBody);
  });
}
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: app.server.address().port }));
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
