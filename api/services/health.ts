// `GET /api/health`: 200 while the process serves, with what an operator (or a monitor) needs to
// tell a degraded service from a healthy one: the storage (a fault this process saw lately, or
// less than DISK_LOW_BYTES free in DATA_DIR), the database (a probe that answers within
// HEALTH_PROBE_MS whatever the server does, and the calls this process saw run slow or fail
// lately) and the e-mail waiting for the mail server (read from the queue, so every process
// reports the same backlog). Decision 0200.
import { probeDatabase, type Db } from '../../db/client.ts';
import type { AppContext } from '../context.ts';
import { FAULT_RECENT_MS, MAIL_WAIT_PREFIX, noteStorageOk, storageHealth } from '../jobs/faults.ts';

/** The health check answers within 2 s: the probe gets this long, the backlog read what is left. */
export const HEALTH_PROBE_MS = 1_500;
const HEALTH_ANSWER_MS = 1_900;

export interface MailBacklog {
  /** Jobs waiting for the mail server. */
  waiting: number;
  /** When the oldest of them was queued (ISO), or null. */
  oldestSince: string | null;
}

/** The jobs waiting for the mail server to come back. */
export async function mailBacklog(ctx: AppContext): Promise<MailBacklog> {
  const { rows } = await ctx.db.$client.execute({
    sql: `SELECT count(*) AS n, min(created_at) AS oldest FROM jobs WHERE status = 'queued' AND substr(last_error, 1, ?) = ?`,
    args: [MAIL_WAIT_PREFIX.length, MAIL_WAIT_PREFIX],
  });
  const n = Number(rows[0]?.n ?? 0);
  return { waiting: n, oldestSince: n && rows[0]?.oldest != null ? new Date(Number(rows[0].oldest)).toISOString() : null };
}

/** 'unreachable' when the probe is refused or fails, 'slow' when it has no answer in time or a
 *  call of this process lately took over a second or ran out of time, else 'ok'. */
function databaseHealth(db: Db, probe: 'ok' | 'slow' | 'unreachable', now: number): 'ok' | 'slow' | 'unreachable' {
  if (probe !== 'ok') return probe;
  return now - Math.max(db.$calls.slowAt, db.$calls.failedAt) < FAULT_RECENT_MS ? 'slow' : 'ok';
}

export async function health(ctx: AppContext) {
  const started = Date.now();
  const probe = await probeDatabase(ctx.db, HEALTH_PROBE_MS);
  const database = databaseHealth(ctx.db, probe, started);
  // A server that answers the probe is reachable again: the fault a request met is over, and
  // health stops saying database_unreachable now rather than for the minute it is remembered
  // (issue 47); database_slow still tells of the calls that failed in that minute.
  if (probe === 'ok' && storageHealth(ctx, started).state === 'unreachable') noteStorageOk(ctx);
  const storage = storageHealth(ctx);
  let mail: MailBacklog | null = null;
  if (database !== 'unreachable' && Date.now() - started < HEALTH_PROBE_MS) {
    let timer: NodeJS.Timeout | undefined;
    mail = await Promise.race([
      mailBacklog(ctx).catch(() => null),
      new Promise<null>((done) => (timer = setTimeout(() => done(null), Math.max(1, started + HEALTH_ANSWER_MS - Date.now())))),
    ]);
    clearTimeout(timer);
  }
  const storageProblem = { ok: null, busy: 'database_locked', low: 'disk_low', full: 'storage_full', readonly: 'storage_readonly', unreachable: 'database_unreachable' }[storage.state];
  const problems = [
    ...new Set([
      ...(storageProblem ? [storageProblem] : []),
      ...(database === 'unreachable' ? ['database_unreachable'] : database === 'slow' ? ['database_slow'] : []),
      ...(mail?.waiting ? ['mail_backlog'] : []),
    ]),
  ];
  return {
    ok: true,
    status: problems.length ? ('degraded' as const) : ('ok' as const),
    problems,
    storage: storage.state,
    database,
    mailBacklog: mail,
  };
}
