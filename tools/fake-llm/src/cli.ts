import { parseArgs } from 'node:util';
import { startFakeOpenAI } from './openai-fake';
import { startFakeVertex } from './vertex-fake';

const usage = `Usage: npm start -w tools/fake-llm -- [options]

  --openai-port <n>   port of the fake OpenAI server (default 4010; 0 = any free port)
  --vertex-port <n>   port of the fake Vertex AI server (default 4011; 0 = any free port)
  --host <host>       interface to listen on (default 127.0.0.1)
  --latency <ms>      wait before every answer (default 0)
  --chunk-delay <ms>  wait between stream events (default 0)
  --api-key <key>     refuse any other key with the provider's 401 (default: accept any)
`;

function port(value: string | undefined, fallback: number): number {
  const n = Number(value ?? fallback);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new Error(`invalid port: ${value}`);
  return n;
}

function ms(value: string | undefined): number {
  const n = Number(value ?? 0);
  if (!Number.isFinite(n) || n < 0) throw new Error(`invalid duration: ${value}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'openai-port': { type: 'string' },
      'vertex-port': { type: 'string' },
      host: { type: 'string' },
      latency: { type: 'string' },
      'chunk-delay': { type: 'string' },
      'api-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const common = {
    host: values.host ?? '127.0.0.1',
    latencyMs: ms(values.latency),
    chunkDelayMs: ms(values['chunk-delay']),
    ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
  };
  const openai = await startFakeOpenAI({ ...common, port: port(values['openai-port'], 4010) });
  const vertex = await startFakeVertex({ ...common, port: port(values['vertex-port'], 4011) });
  process.stdout.write(
    [
      `fake OpenAI     ${openai.url}   (OPENAI_BASE_URL)`,
      `fake Vertex AI  ${vertex.url}   (VERTEX_BASE_URL, with any VERTEX_API_KEY)`,
      'control: GET /_fake/requests, POST /_fake/replies, POST /_fake/reset on either port',
      '',
    ].join('\n'),
  );
  const stop = () => {
    void Promise.all([openai.close(), vertex.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
  process.exit(1);
});
