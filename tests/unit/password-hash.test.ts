// The product's password hash: scrypt at N = 16384 (SCRYPT_COST 14), as better-auth's own, so a
// hash either one made verifies with the other; a lower cost is for tests only (the tests use 10,
// tests/helpers/scrypt-cost.ts) and is refused in production.
import { hashPassword as betterAuthHash, verifyPassword as betterAuthVerify } from 'better-auth/crypto';
import { expect, it } from 'vitest';
import { loadEnv } from '../../api/env.ts';
import { hashPassword, verifyPassword } from '../../api/lib/password-hash.ts';

it("hashes at better-auth's own scrypt cost by default, in the same format", async () => {
  expect(loadEnv({}).SCRYPT_COST).toBe(14);
  const ours = await hashPassword('correct-horse-battery');
  expect(await betterAuthVerify({ hash: ours, password: 'correct-horse-battery' })).toBe(true);
  const theirs = await betterAuthHash('correct-horse-battery');
  expect(await verifyPassword({ hash: theirs, password: 'correct-horse-battery' })).toBe(true);
  expect(await verifyPassword({ hash: theirs, password: 'correct-horse-batterY' })).toBe(false);
});

it('a hash made at one cost does not verify at another: every process on a database uses the same', async () => {
  const cheap = await hashPassword('correct-horse-battery', 10);
  expect(await verifyPassword({ hash: cheap, password: 'correct-horse-battery' }, 10)).toBe(true);
  expect(await verifyPassword({ hash: cheap, password: 'correct-horse-battery' })).toBe(false);
});

it('refuses a cost below 14 in production', () => {
  expect(() => loadEnv({ NODE_ENV: 'production', ALLOW_SAMPLE_DATA: 'true', SCRYPT_COST: '10' })).toThrow(/SCRYPT_COST: is for tests only below 14/);
  expect(loadEnv({ NODE_ENV: 'test', SCRYPT_COST: '10' }).SCRYPT_COST).toBe(10);
});
