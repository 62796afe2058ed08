// Proof of work on the free-report form (issue 49, decision 0350). Below the thresholds nothing
// is asked of anyone. Past a day's count of free reports from one network (/24, /48) or one
// e-mail domain (a free-mail domain: one address), or once POW_BUDGET_SHARE of the day's provider
// budget is spent, the form must carry a solved ALTCHA challenge (altcha-lib, self-hosted, signed
// with ALTCHA_HMAC_KEY), each used once: a person waits a moment, a script pays per report.
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { and, gt, inArray } from 'drizzle-orm';
import { rateLimits } from '../../db/schema/operations.ts';
import type { AppContext } from '../context.ts';
import type { Env } from '../env.ts';
import { AppError } from '../errors.ts';
import { networkOf } from '../lib/ip-network.ts';
import { keptSecret } from '../lib/kept-secret.ts';
import { utcDay } from '../lib/provider-calls.ts';
import { pricesFor } from '../lib/provider-prices.ts';
import { daySpend } from '../lib/provider-spend.ts';
import { upsert } from './rate-limit.ts';

const DAY_MS = 86_400_000;
/** How long a challenge may take from its issue to the form that carries it. */
export const CHALLENGE_TTL_MS = 10 * 60_000;
const ALGORITHM = 'PBKDF2/SHA-256';

/** Mail services anyone can open an address at: their domain says nothing of who writes, so
 *  each address is counted on its own. */
export const FREE_MAIL_DOMAINS = new Set([
  'gmail.com', 'googlemail.com', 'yahoo.com', 'ymail.com', 'rocketmail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com',
  'icloud.com', 'me.com', 'mac.com', 'aol.com', 'proton.me', 'protonmail.com', 'pm.me', 'gmx.com', 'gmx.net', 'mail.com',
  'yandex.com', 'zoho.com', 'zohomail.com', 'fastmail.com', 'tutanota.com', 'tuta.io', 'hey.com', 'comcast.net', 'att.net',
  'verizon.net', 'sbcglobal.net', 'bellsouth.net', 'cox.net', 'charter.net', 'earthlink.net', 'optonline.net',
]);

export interface Sender {
  ip: string;
  email: string;
}

/** The counters a free report from this sender adds to: its network's and its domain's (or, on a free-mail domain, its address's). */
function counterKeys(sender: Sender) {
  const domain = sender.email.slice(sender.email.lastIndexOf('@') + 1).toLowerCase();
  return { network: `pow:net:${networkOf(sender.ip)}`, mail: FREE_MAIL_DOMAINS.has(domain) ? `pow:addr:${sender.email.toLowerCase()}` : `pow:domain:${domain}` };
}

export type PowReason = 'network' | 'domain' | 'budget';

/** Why this sender's next free report needs a proof of work, or null when it does not. */
export async function powReason(ctx: AppContext, sender: Sender, now = new Date()): Promise<PowReason | null> {
  const keys = counterKeys(sender);
  const rows = await ctx.db
    .select()
    .from(rateLimits)
    .where(and(inArray(rateLimits.key, [keys.network, keys.mail]), gt(rateLimits.resetAt, now)));
  const count = (key: string) => rows.find((r) => r.key === key)?.count ?? 0;
  if (count(keys.network) >= ctx.env.POW_AFTER_PER_NETWORK) return 'network';
  if (count(keys.mail) >= ctx.env.POW_AFTER_PER_DOMAIN) return 'domain';
  const budget = ctx.env.PROVIDER_DAILY_BUDGET_USD;
  if (budget > 0 && (await daySpend(ctx.db, pricesFor(ctx.env), utcDay(now))).usd >= ctx.env.POW_BUDGET_SHARE * budget) return 'budget';
  return null;
}

/** Counts an accepted free report against its sender's network and domain, for a day. */
export async function countFreeReport(ctx: AppContext, sender: Sender, now = new Date()): Promise<void> {
  const keys = counterKeys(sender);
  await ctx.db.batch([upsert(ctx, { key: keys.network, windowMs: DAY_MS }, now.getTime()), upsert(ctx, { key: keys.mail, windowMs: DAY_MS }, now.getTime())]);
}

const hmacKey = (env: Env) => keptSecret(env, env.ALTCHA_HMAC_KEY, 'altcha-key');
// The derived key is signed with a second key made from the first, so checking a solution
// takes one HMAC, not the work again.
const keySecret = (env: Env) => `${hmacKey(env)}:key`;

/** A signed challenge: the counter a solver must reach is drawn between half and all of POW_MAX_COUNTER. */
export function issueChallenge(ctx: AppContext, now = new Date()): Promise<Challenge> {
  const max = ctx.env.POW_MAX_COUNTER;
  return createChallenge({
    algorithm: ALGORITHM,
    cost: ctx.env.POW_COST,
    counter: randomInt(Math.floor(max / 2), max),
    deriveKey,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    hmacSignatureSecret: hmacKey(ctx.env),
    hmacKeySignatureSecret: keySecret(ctx.env),
  });
}

export const POW_MESSAGES = {
  missing: 'Your browser needs to confirm this request. Please send the form again.',
  invalid: 'This confirmation is not valid. Please send the form again.',
  expired: 'This confirmation has expired. Please send the form again.',
  used: 'This confirmation has already been used. Please send the form again.',
} as const;
export type PowRefusal = keyof typeof POW_MESSAGES;

function parsePayload(text: string): Payload | null {
  try {
    const parsed = JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as Payload;
    return parsed && typeof parsed === 'object' && parsed.challenge?.parameters && parsed.solution ? parsed : null;
  } catch {
    return null;
  }
}

/** Null when `altcha` (the solved challenge, base64 JSON as ALTCHA's widget sends it) is good and
 *  unused, which it is no longer after this call; else why it is refused. */
export async function spendSolution(ctx: AppContext, altcha: string | undefined, now = new Date()): Promise<PowRefusal | null> {
  if (!altcha) return 'missing';
  const payload = parsePayload(altcha);
  if (!payload || payload.challenge.parameters.algorithm !== ALGORITHM) return 'invalid';
  const expiresAt = Number(payload.challenge.parameters.expiresAt) * 1000;
  if (!(expiresAt > now.getTime())) return 'expired';
  let result;
  try {
    result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, hmacSignatureSecret: hmacKey(ctx.env), hmacKeySignatureSecret: keySecret(ctx.env) });
  } catch {
    return 'invalid';
  }
  if (result.expired) return 'expired';
  if (!result.verified) return 'invalid';
  // Used once: the signature is kept until the challenge expires, when it could no longer pass.
  const taken = await ctx.db.$client.execute({
    sql: 'INSERT INTO rate_limits (key, count, reset_at) VALUES (?, 1, ?) ON CONFLICT (key) DO UPDATE SET count = 1, reset_at = excluded.reset_at WHERE rate_limits.reset_at <= ? RETURNING key',
    args: [`pow:used:${payload.challenge.signature}`, expiresAt, now.getTime()],
  });
  return taken.rows.length ? null : 'used';
}

/** The 400 for a form without a good proof of work: the message under the field, and a fresh
 *  challenge for the form to solve and send again. */
export async function powRefusal(ctx: AppContext, refusal: PowRefusal, now = new Date()) {
  const error = new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { altcha: POW_MESSAGES[refusal] } });
  return { code: error.code, message: error.message, fields: error.fields!, challenge: await issueChallenge(ctx, now) };
}
