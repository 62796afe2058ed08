// API keys (issue 16). A key is `lr_live_` + 30 random base62 characters + a 6-character
// checksum of them, so a leaked key is recognisable (secret scanners, our own verifier) without a
// database read. Only its SHA-256 is stored, with a visible prefix and the last four characters:
// a key is 178 random bits, so a fast hash is enough and verification stays one hash and one
// indexed read (decision 0120). A key acts as its owner, limited by its scopes and by the owner's
// current plan: a lapsed plan answers 403, not 401.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { scopeNotForAccount, scopesFor, type ApiScope, type CreateApiKeyInput } from '../../common/schemas/api-keys.ts';
import { apiKeys } from '../../db/schema/api.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { can, type Plan } from './plans/entitlements.ts';
import { meterRateLimit, type Meter } from './rate-meter.ts';

export const API_KEY_PREFIX = 'lr_live_';
const BODY_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_PLAN_MESSAGE = 'API access is part of the Enterprise and Agency plans. Renew or upgrade the plan of this key\'s owner to use it.';
/** Last-used times are written at most this often per key: a busy key adds no write per request. */
const LAST_USED_EVERY_MS = 60_000;

export const apiKeyNotFound = () => new AppError('not_found', 'API key not found');

function base62(bytes: Buffer, length: number): string {
  let out = '';
  for (const byte of bytes) {
    // 248 = 4 × 62: rejecting the bytes above keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
    if (out.length === length) return out;
  }
  return out + base62(randomBytes(length), length - out.length);
}

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text)) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function generateApiKey(): string {
  const body = base62(randomBytes(BODY_LENGTH * 2), BODY_LENGTH);
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}

/** True when the text has the shape of one of our keys and its checksum matches. */
export function isWellFormedApiKey(key: string): boolean {
  if (key.length !== API_KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH || !key.startsWith(API_KEY_PREFIX)) return false;
  const body = key.slice(API_KEY_PREFIX.length, -CHECKSUM_LENGTH);
  return /^[0-9A-Za-z]+$/.test(body) && checksum(body) === key.slice(-CHECKSUM_LENGTH);
}

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

export interface ApiKeySummary {
  id: string;
  name: string;
  scopes: string[];
  prefix: string;
  lastFour: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** A rolled key: when it stops working. */
  expiresAt: string | null;
}

type KeyRow = typeof apiKeys.$inferSelect;
const summary = (k: KeyRow): ApiKeySummary => ({
  id: k.id,
  name: k.name,
  scopes: k.scopes,
  prefix: k.prefix,
  lastFour: k.lastFour,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  expiresAt: k.expiresAt?.toISOString() ?? null,
});

function requireApiPlan(plan: Plan) {
  if (!can(plan, 'api')) throw new AppError('plan_required', 'API keys are part of the Enterprise and Agency plans.');
}

/** The user's keys that still work (not revoked, not past a roll's grace period), newest first. */
export async function listApiKeys({ ctx, userId, now = new Date() }: { ctx: AppContext; userId: string; now?: Date }): Promise<ApiKeySummary[]> {
  const rows = await ctx.db.select().from(apiKeys).where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt))).orderBy(desc(apiKeys.createdAt));
  return rows.filter((k) => !k.expiresAt || k.expiresAt > now).map(summary);
}

function newKeyRow(userId: string, name: string, scopes: string[]) {
  const key = generateApiKey();
  return { key, row: { userId, name, scopes, hash: hashApiKey(key), prefix: key.slice(0, API_KEY_PREFIX.length + 4), lastFour: key.slice(-4) } };
}

/** Creates a key; the whole key is in this answer and nowhere else, ever. */
export async function createApiKey({ ctx, userId, plan, role, input }: { ctx: AppContext; userId: string; plan: Plan; role: string; input: CreateApiKeyInput }) {
  requireApiPlan(plan);
  // Only the scopes the account type can use (a business owner has no clients).
  const offered = scopesFor(role);
  const unusable = input.scopes.find((s) => !offered.includes(s));
  if (unusable) throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { scopes: scopeNotForAccount(unusable) } });
  const { key, row } = newKeyRow(userId, input.name, input.scopes);
  const [stored] = await ctx.db.insert(apiKeys).values(row).returning();
  return { apiKey: summary(stored!), key };
}

/** The user's working key with this id, or 404 (another user's key answers the same). */
export async function ownedKey(ctx: AppContext, userId: string, keyId: string, now = new Date()): Promise<KeyRow> {
  const key = await ctx.db.query.apiKeys.findFirst({ where: and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)) });
  if (!key || (key.expiresAt && key.expiresAt <= now)) throw apiKeyNotFound();
  return key;
}

/** A new key with the same name and scopes; the old one keeps working for `graceHours`. */
export async function rollApiKey({ ctx, userId, plan, keyId, graceHours, now = new Date() }: { ctx: AppContext; userId: string; plan: Plan; keyId: string; graceHours: number; now?: Date }) {
  requireApiPlan(plan);
  const old = await ownedKey(ctx, userId, keyId, now);
  if (old.rolledToId) throw new AppError('conflict', 'This key has already been rolled; roll its successor instead.');
  const { key, row } = newKeyRow(userId, old.name, old.scopes);
  const id = crypto.randomUUID();
  const expiresAt = new Date(now.getTime() + graceHours * 3_600_000);
  const [[stored]] = await ctx.db.batch([
    ctx.db.insert(apiKeys).values({ ...row, id }).returning(),
    ctx.db.update(apiKeys).set({ rolledToId: id, expiresAt }).where(eq(apiKeys.id, old.id)),
  ]);
  return { apiKey: summary(stored!), key, previous: { id: old.id, expiresAt: expiresAt.toISOString() } };
}

export async function revokeApiKey({ ctx, userId, keyId, now = new Date() }: { ctx: AppContext; userId: string; keyId: string; now?: Date }) {
  const key = await ownedKey(ctx, userId, keyId, now);
  await ctx.db.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, key.id));
  return { revoked: true };
}

export interface ApiCaller {
  keyId: string;
  userId: string;
  /** The caller's consultant profile, when the owner is a consultant (clients are theirs). */
  consultantId: string | null;
  scopes: ReadonlySet<string>;
  plan: Plan;
  tier: string;
}

// ?1 hash, ?2 now (ms). One indexed read: the key, its owner's plan and consultant profile.
const VERIFY_SQL = `
SELECT k.id, k.user_id, k.scopes, k.last_used_at, u.subscription_tier AS tier, u.subscription_status AS status, c.id AS consultant_id
FROM api_keys k JOIN users u ON u.id = k.user_id LEFT JOIN consultants c ON c.user_id = u.id
WHERE k.hash = ?1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?2)`;

/**
 * `last_used_at` of the keys used since the last flush, written in one batch a second later
 * rather than by the request: with thousands of keys in use, a write transaction per key and
 * minute on the request path (each a commit on the event loop) made the key route's cost and
 * tail latency grow with the number of keys.
 */
const lastUsedPending = new WeakMap<object, { keys: Map<string, number>; timer: NodeJS.Timeout | null }>();

function noteLastUsed(ctx: Pick<AppContext, 'db'>, keyId: string, now: number) {
  let pending = lastUsedPending.get(ctx.db);
  if (!pending) lastUsedPending.set(ctx.db, (pending = { keys: new Map(), timer: null }));
  pending.keys.set(keyId, now);
  if (pending.timer) return;
  pending.timer = setTimeout(() => {
    pending.timer = null;
    void flushLastUsed(ctx).catch(() => undefined);
  }, 1000);
  pending.timer.unref();
}

// ?1 a JSON array of [key id, time in ms].
const LAST_USED_SQL = `
UPDATE api_keys SET last_used_at = j.value ->> 1
FROM json_each(?1) AS j WHERE api_keys.id = j.value ->> 0`;

/** Writes the pending `last_used_at` values now (the timer does it a second after the first use). */
export async function flushLastUsed(ctx: Pick<AppContext, 'db'>): Promise<void> {
  const pending = lastUsedPending.get(ctx.db);
  if (!pending?.keys.size) return;
  const entries = [...pending.keys];
  pending.keys.clear();
  // One statement for every key: a statement per key made this flush block for 14 ms at 500 keys.
  await ctx.db.$client.execute({ sql: LAST_USED_SQL, args: [JSON.stringify(entries)] });
}

const invalidKey = () => new AppError('unauthenticated', 'Missing or invalid API key. Send it as "Authorization: Bearer lr_live_…".');

/**
 * The caller behind `Authorization: Bearer <key>`: 401 without a valid key, 403 plan_required
 * when the owner's plan no longer includes the API (the key is fine; the plan is not).
 */
export async function verifyApiKey(ctx: AppContext, authorization: string | null | undefined, now = Date.now()): Promise<ApiCaller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const key = match?.[1];
  if (!key || !isWellFormedApiKey(key)) throw invalidKey();
  const [row] = await ctx.db.$read(VERIFY_SQL, [hashApiKey(key), now]);
  if (!row) throw invalidKey();
  const plan = { subscriptionTier: String(row.tier), subscriptionStatus: String(row.status) };
  if (!can(plan, 'api')) throw new AppError('plan_required', API_PLAN_MESSAGE);
  const lastUsed = row.last_used_at === null ? 0 : Number(row.last_used_at);
  if (now - lastUsed >= LAST_USED_EVERY_MS) noteLastUsed(ctx, String(row.id), now);
  return {
    keyId: String(row.id),
    userId: String(row.user_id),
    consultantId: row.consultant_id === null ? null : String(row.consultant_id),
    scopes: new Set(JSON.parse(String(row.scopes)) as string[]),
    plan,
    tier: plan.subscriptionTier,
  };
}

export function requireScope(caller: ApiCaller, scope: ApiScope): void {
  if (!caller.scopes.has(scope)) throw new AppError('forbidden', `This API key lacks the "${scope}" scope.`);
}

export const API_RATE_WINDOW_MS = 60_000;

/** Counts one request against the key's per-minute limit (by the owner's plan, settings). */
export function meterApiCall(ctx: AppContext, caller: ApiCaller, now = Date.now()): Promise<Meter> {
  const limit = caller.tier === 'agency' ? ctx.env.API_RATE_LIMIT_AGENCY : ctx.env.API_RATE_LIMIT_ENTERPRISE;
  return meterRateLimit({
    ctx,
    now,
    input: { key: `api:key:${caller.keyId}`, limit, windowMs: API_RATE_WINDOW_MS, message: `This API key is limited to ${limit} requests a minute. Please slow down.` },
  });
}
