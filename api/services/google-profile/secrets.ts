// Google tokens at rest: AES-256-GCM with a key derived from TOKEN_SECRET_KEY (decision 0280).
// A token is never stored in clear: without the key, "Connect" is not offered at all.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Env } from '../../env.ts';

const keyOf = (env: Pick<Env, 'TOKEN_SECRET_KEY'>) => (env.TOKEN_SECRET_KEY ? createHash('sha256').update(`google-token:${env.TOKEN_SECRET_KEY}`).digest() : null);

/** `t1.{iv}.{tag}.{ciphertext}`, base64url. */
export function sealToken(env: Pick<Env, 'TOKEN_SECRET_KEY'>, plain: string): string {
  const key = keyOf(env);
  if (!key) throw new Error('TOKEN_SECRET_KEY is not set');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['t1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The token, or null when it cannot be read (no key, another key, a damaged value). */
export function openToken(env: Pick<Env, 'TOKEN_SECRET_KEY'>, stored: string | null): string | null {
  const key = keyOf(env);
  const [version, iv, tag, body] = (stored ?? '').split('.');
  if (!key || version !== 't1' || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
