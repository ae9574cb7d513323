// The yardstick of bench/api.bench.ts: a bare Fastify from the project's own node_modules, no plugins, no logger.
// `GET /hello` answers a small JSON object; with BARE_PG_URL set, `GET /pg?user=…` runs one `pg` query (the newest
// 10 trades of a user, as the trade list's page reads them) through a pool and answers the rows. Prints
// `{"port": n}` on stdout once listening.
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
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: app.server.address().port }));
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
