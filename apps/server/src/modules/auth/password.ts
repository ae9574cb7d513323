import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane. */
const params = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, params);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** Spends the same time as a real check, so unknown usernames cannot be told apart by timing. */
export async function burnVerify(password: string): Promise<void> {
  dummy ??= hashPassword('pipsense-timing-equaliser');
  await verifyPassword(await dummy, password);
}
