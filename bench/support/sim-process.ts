import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface SimProcess {
  url: string;
  token: string;
  accounts: Array<{ id: string; alias: string; currency: string }>;
  pid: number;
  close(): Promise<void>;
}

export interface SimProcessOptions {
  accounts: number;
  tradesPerAccount: number;
  seed?: number;
  historyDays?: number;
}

const children = new Set<ChildProcess>();
// A benchmark that dies must not leave its simulator listening.
process.on('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});

/**
 * The OANDA v20 simulator in its own process, so that serving 10,000 trades does not compete with the code
 * being measured for this process's event loop and heap. Node with the tsx loader directly (not `npx tsx`), so the
 * pid we hold is the simulator itself and stopping it stops everything it started.
 */
export async function startSimProcess(options: SimProcessOptions): Promise<SimProcess> {
  const args = [
    '--import',
    'tsx',
    'tools/oanda-sim/src/cli.ts',
    '--json',
    '--port',
    '0',
    '--accounts',
    String(options.accounts),
    '--trades',
    String(options.tradesPerAccount),
    '--seed',
    String(options.seed ?? 42),
    ...(options.historyDays !== undefined ? ['--history-days', String(options.historyDays)] : []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    children.delete(child);
  };

  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the simulator did not start within 60 s')), 60_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited with code ${code} before it was ready`));
    });
  }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  lines.close();
  child.stdout.resume(); // nothing more is expected; never let a full pipe stall the simulator
  const info = JSON.parse(first) as Omit<SimProcess, 'close' | 'pid'>;
  return { url: info.url, token: info.token, accounts: info.accounts, pid: child.pid!, close };
}
