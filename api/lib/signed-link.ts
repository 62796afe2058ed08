// Signed links in e-mails that act without a session (delete my data, restore an account,
// download an export): a purpose, a subject (the id the link acts on) and an expiry, signed with
// an HMAC of the auth secret. The one signer of the product's e-mail links; decision 0131. The
// known-browser cookie of a sign-in (decision 0134) is signed the same way.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { secretOf } from '../auth.ts';

export type LinkPurpose = 'forget-request' | 'export-download' | 'restore-account' | 'known-browser';

export type LinkCheck = { state: 'valid'; subject: string; expiresAt: Date } | { state: 'expired'; subject: string } | { state: 'invalid' };

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');

async function mac(ctx: Pick<AppContext, 'auth'>, body: string): Promise<Buffer> {
  return createHmac('sha256', await secretOf(ctx)).update(`signed-link:${body}`).digest();
}

export async function signLink(ctx: Pick<AppContext, 'auth'>, purpose: LinkPurpose, subject: string, expiresAt: Date): Promise<string> {
  const body = b64(JSON.stringify({ p: purpose, s: subject, e: expiresAt.getTime() }));
  return `${body}.${b64(await mac(ctx, body))}`;
}

/** The link's subject when its signature is ours, its purpose the one asked for and it has not expired. */
export async function checkLink(ctx: Pick<AppContext, 'auth'>, purpose: LinkPurpose, token: string, now = new Date()): Promise<LinkCheck> {
  if (token.length > 1000) return { state: 'invalid' };
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return { state: 'invalid' };
  const given = Buffer.from(signature, 'base64url');
  const expected = await mac(ctx, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { state: 'invalid' };
  let claims: { p?: unknown; s?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { state: 'invalid' };
  }
  if (claims.p !== purpose || typeof claims.s !== 'string' || typeof claims.e !== 'number') return { state: 'invalid' };
  if (claims.e <= now.getTime()) return { state: 'expired', subject: claims.s };
  return { state: 'valid', subject: claims.s, expiresAt: new Date(claims.e) };
}
