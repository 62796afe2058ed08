// Password hashing for better-auth, off the event loop and bounded. better-auth's own scrypt is
// JavaScript on the main thread (it yields between blocks, so a burst of logins was a queue that
// slowed every other request, not a hang: decision 0091). This is the same scrypt with the same
// parameters and stored format (`<salt hex>:<key hex>`, the salt's hex text as the salt), so
// existing hashes verify, computed by node:crypto in libuv's thread pool, at most
// HASH_CONCURRENCY at once; when HASH_QUEUE more wait already, the request is refused at once
// with 503 and Retry-After instead of waiting behind them. N is 2^cost (SCRYPT_COST, 14 unless a
// test asks for less); the stored hash does not record it.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.ts';

/** scrypt's N is 2 to this power: better-auth's N = 16384. */
export const DEFAULT_SCRYPT_COST = 14;
const params = (cost: number) => ({ N: 2 ** cost, r: 16, p: 1, maxmem: 128 * 2 ** cost * 16 * 2 });
const KEY_LENGTH = 64;
export const HASH_CONCURRENCY = 2;
export const HASH_QUEUE = 32;

let running = 0;
const waiting: Array<() => void> = [];

export const busyError = () =>
  new AppError('busy', 'We are handling a lot of sign-ins right now. Please try again in a moment.', { retryAfterSeconds: 2 });

/** True when a new hash would be refused: every slot is busy and the queue is full. */
export const hashingSaturated = () => running >= HASH_CONCURRENCY && waiting.length >= HASH_QUEUE;

async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_CONCURRENCY) {
    if (waiting.length >= HASH_QUEUE) throw busyError();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next(); // the slot passes to the next in line
    else running--;
  }
}

function derive(password: string, salt: string, cost: number): Promise<Buffer> {
  return inSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, params(cost), (error, key) => (error ? reject(error) : resolve(key))),
      ),
  );
}

export async function hashPassword(password: string, cost = DEFAULT_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(16).toString('hex');
  return `${salt}:${(await derive(password, salt, cost)).toString('hex')}`;
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }, cost = DEFAULT_SCRYPT_COST): Promise<boolean> {
  const [salt, key] = hash.split(':');
  if (!salt || !key) throw new Error('Invalid password hash');
  const expected = Buffer.from(key, 'hex');
  const actual = await derive(password, salt, cost);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
