// `GET /api/health`: 200 while the process serves, with what an operator (or a monitor) needs to
// tell a degraded service from a healthy one: the storage (a fault this process saw lately, or
// less than DISK_LOW_BYTES free in DATA_DIR) and the e-mail waiting for the mail server (read
// from the queue, so every process reports the same backlog). Decision 0200.
import type { AppContext } from '../context.ts';
import { MAIL_WAIT_PREFIX, storageHealth } from '../jobs/faults.ts';

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

export async function health(ctx: AppContext) {
  const storage = storageHealth(ctx);
  let mail: MailBacklog | null = null;
  try {
    mail = await mailBacklog(ctx);
  } catch {
    // A database that cannot be read is itself the fault to report.
  }
  const problems = [
    ...(storage.state === 'ok' ? [] : [storage.state === 'busy' ? 'database_locked' : storage.state === 'low' ? 'disk_low' : 'storage_full']),
    ...(mail === null ? ['database_unreadable'] : mail.waiting > 0 ? ['mail_backlog'] : []),
  ];
  return {
    ok: true,
    status: problems.length ? ('degraded' as const) : ('ok' as const),
    problems,
    storage: storage.state,
    mailBacklog: mail,
  };
}
