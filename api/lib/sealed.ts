// Secrets at rest (an agency's SMTP password, a Google refresh token): AES-256-GCM under a key
// derived from a setting and a purpose, so one setting never opens another purpose's values.
// Stored as `{version}.{iv}.{tag}.{ciphertext}`, base64url.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The key for `purpose` from `secret` (a setting), or null when the setting is not given. */
export const sealingKey = (purpose: string, secret: string | undefined): Buffer | null => (secret ? createHash('sha256').update(`${purpose}:${secret}`).digest() : null);

export function seal(key: Buffer, version: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [version, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The plain value, or null when it cannot be read (no key, another key or version, a damaged value). */
export function unseal(key: Buffer | null, version: string, stored: string | null): string | null {
  const [v, iv, tag, body] = (stored ?? '').split('.');
  if (!key || v !== version || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
