// Infrastructure faults: the disk full, the database locked, the mail server refusing or silent.
// They are not a request's or a job's fault, so they are told apart from other errors: a request
// is answered 503 with Retry-After, a job waits without spending its attempts, the worker pauses
// as a whole, `GET /api/health` says degraded, and the log says so once a minute (decision 0200).
import { statfsSync } from 'node:fs';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { errorMessage } from '../log.ts';

export type StorageFault = 'full' | 'busy' | 'readonly' | 'unreachable';

/** Every message and code along an error's cause chain (drizzle wraps libSQL's error). */
function trail(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    parts.push(String(code ?? ''), String(message ?? e));
  }
  return parts.join(' ');
}

/** 'full' when the disk (or the database's page limit) is full, 'busy' when the database stayed
 *  locked, 'readonly' when the database file or its volume cannot be written, 'unreachable' when a database server could not be reached or did not answer in time
 *  (db/client.ts gives every call to a server a deadline). */
export function storageFault(error: unknown): StorageFault | null {
  const text = trail(error);
  if (/DATABASE_UNREACHABLE/.test(text)) return 'unreachable';
  if (/SQLITE_FULL|database or disk is full|ENOSPC|no space left on device|EDQUOT/i.test(text)) return 'full';
  if (/SQLITE_BUSY|database is locked/i.test(text)) return 'busy';
  if (/SQLITE_READONLY|readonly database|EROFS|read-only file system/i.test(text)) return 'readonly';
  return null;
}

/** The mail server refused the connection, timed out, or answered "try later" (4xx). */
export class MailUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailUnavailableError';
  }
}

const MAIL_TRANSIENT_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EPROTOCOL']);

/** Whether nodemailer's error means the server is away or overloaded, not that the message is bad. */
export function mailServerUnavailable(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: string; responseCode?: number };
  if (typeof responseCode === 'number') return responseCode >= 400 && responseCode < 500;
  return code !== undefined && MAIL_TRANSIENT_CODES.has(code);
}

/** How long a job waits for the mail server, one delay per wait: about 52 hours in all, after
 *  which the job fails as any other would (and, its attempts spent, gives up). */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const MAIL_RETRY_DELAYS_MS = [30_000, MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 12 * HOUR, 24 * HOUR] as const;
export const MAIL_RETRY_WINDOW_MS = MAIL_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
/** How a job waiting for the mail server starts its last_error: what the backlog counts. */
export const MAIL_WAIT_PREFIX = 'waiting for the mail server';
/** How a job waiting for a customer's server (an agency's mail server) starts its last_error:
 *  not our backlog, so it does not start like MAIL_WAIT_PREFIX. */
export const CUSTOMER_SERVER_WAIT_PREFIX = "waiting for the customer's server";

/** How a report waiting for the provider budget or a provider's cap starts its last_error
 *  (api/report/budget.ts): the jobs a restart runs at once (runWaitingForBudgetNow). */
export const BUDGET_WAIT_PREFIX = 'waiting for the provider budget';

/** A worker's pause after a storage fault: doubling from this, up to STORAGE_PAUSE_MAX_MS. */
export const STORAGE_PAUSE_MS = 1_000;
export const STORAGE_PAUSE_MAX_MS = 30_000;
/** The same fault is logged at most once per this long (with the count of those not logged). */
export const FAULT_LOG_EVERY_MS = 60_000;
/** A fault seen within this long keeps the health check degraded. */
export const FAULT_RECENT_MS = 60_000;
/** Below this much free space in DATA_DIR the health check says degraded before writes fail. */
export const DISK_LOW_BYTES = 1024 * 1024;
export const STORAGE_RETRY_AFTER_S = 30;

interface FaultState {
  storage: { kind: StorageFault; at: number; since: number } | null;
  logged: Map<string, { at: number; suppressed: number }>;
}

const states = new WeakMap<AppContext, FaultState>();
function stateOf(ctx: AppContext): FaultState {
  let state = states.get(ctx);
  if (!state) states.set(ctx, (state = { storage: null, logged: new Map() }));
  return state;
}

/** Logs a warning unless the same `key` was logged within FAULT_LOG_EVERY_MS; then says how many were skipped. */
export function warnOncePerMinute(ctx: AppContext, key: string, msg: string, fields: Record<string, unknown>, now = Date.now()) {
  const state = stateOf(ctx);
  const last = state.logged.get(key);
  if (last && now - last.at < FAULT_LOG_EVERY_MS) {
    last.suppressed++;
    return;
  }
  ctx.log.warn(msg, { ...fields, ...(last?.suppressed ? { sameSinceLastLine: last.suppressed } : {}) });
  state.logged.set(key, { at: now, suppressed: 0 });
}

/** Records a storage fault seen at `where` (a route, the worker) and logs it, once a minute. */
export function noteStorageFault(ctx: AppContext, kind: StorageFault, where: string, error: unknown, now = Date.now()) {
  const state = stateOf(ctx);
  state.storage = { kind, at: now, since: state.storage?.since ?? now };
  const said = {
    full: 'storage full: writes refused',
    busy: 'database locked: writes refused',
    readonly: 'database read-only: writes refused (check the owner and mode of the database file and its folder)',
    unreachable: 'database unreachable: requests refused',
  }[kind];
  warnOncePerMinute(ctx, `storage:${kind}`, said, { where, error: errorMessage(error) }, now);
}

/** A write went through: the storage is fine again. */
export function noteStorageOk(ctx: AppContext) {
  const state = stateOf(ctx);
  if (!state.storage) return;
  ctx.log.info('storage writable again', { downForMs: Date.now() - state.storage.since });
  state.storage = null;
}

/** The error a request gets when the storage refuses a write: 503 with Retry-After. */
export function storageError(kind: StorageFault): AppError {
  if (kind === 'full') return new AppError('storage_full', 'We cannot store anything right now. Nothing you sent was lost; please try again in a minute.', { retryAfterSeconds: STORAGE_RETRY_AFTER_S });
  if (kind === 'readonly') return new AppError('storage_readonly', 'Our database is read-only right now, so we cannot store anything. Nothing you sent was lost; please try again in a minute.', { retryAfterSeconds: STORAGE_RETRY_AFTER_S });
  if (kind === 'unreachable') return new AppError('busy', 'We cannot reach our database right now. Please try again in a minute.', { retryAfterSeconds: STORAGE_RETRY_AFTER_S });
  return new AppError('busy', 'The server is busy. Please try again in a moment.', { retryAfterSeconds: 5 });
}

/** Free bytes on the file system of DATA_DIR, or null when it cannot be told. */
export function freeBytes(dir: string): number | null {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

/** What this process has seen lately of the storage, and the space left in DATA_DIR. */
export function storageHealth(ctx: AppContext, now = Date.now()): { state: 'ok' | StorageFault | 'low'; since?: string; freeBytes: number | null } {
  const recent = stateOf(ctx).storage;
  const free = freeBytes(ctx.env.DATA_DIR);
  if (recent && now - recent.at < FAULT_RECENT_MS) return { state: recent.kind, since: new Date(recent.since).toISOString(), freeBytes: free };
  return { state: free !== null && free < DISK_LOW_BYTES ? 'low' : 'ok', freeBytes: free };
}
