// Google tokens at rest: AES-256-GCM with a key derived from TOKEN_SECRET_KEY (decision 0280).
// A token is never stored in clear: without the key, "Connect" is not offered at all.
import type { Env } from '../../env.ts';
import { seal, sealingKey, unseal } from '../../lib/sealed.ts';

const keyOf = (env: Pick<Env, 'TOKEN_SECRET_KEY'>) => sealingKey('google-token', env.TOKEN_SECRET_KEY);

export function sealToken(env: Pick<Env, 'TOKEN_SECRET_KEY'>, plain: string): string {
  const key = keyOf(env);
  if (!key) throw new Error('TOKEN_SECRET_KEY is not set');
  return seal(key, 't1', plain);
}

/** The token, or null when it cannot be read (no key, another key, a damaged value). */
export const openToken = (env: Pick<Env, 'TOKEN_SECRET_KEY'>, stored: string | null): string | null => unseal(keyOf(env), 't1', stored);
