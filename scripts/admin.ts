// Operator tool: `npm run admin -- <command>`. Works on the database the settings point at.
import { existsSync } from 'node:fs';
import { createContext } from '../api/create-context.ts';
import { EnvError, loadEnv } from '../api/env.ts';
import { AppError } from '../api/errors.ts';
import { JOB_STATUSES, listJobs, retryJob, sendWaitingMail } from '../api/jobs/admin.ts';
import { backupDatabase } from '../api/services/backup.ts';
import { mailBacklog } from '../api/services/health.ts';
import { ACCOUNT_GRACE_DAYS } from '../api/services/data-rights/account-closure.ts';
import { describeErasure, forgetEmail } from '../api/services/data-rights/erasure.ts';
import { runRetentionPurge } from '../api/services/data-rights/retention-job.ts';
import { REPORT_DOMAIN_CLAIM_DAYS } from '../api/services/report-domains/domains.ts';
import { requestAccountExport } from '../api/services/data-rights/export.ts';
import { setupBilling } from '../api/services/billing/catalogue.ts';
import { refundSubscription } from '../api/services/billing/refund.ts';
import { billingConfigured, NOT_CONFIGURED_MESSAGE } from '../api/services/billing/stripe.ts';
import { listUsers, setPlan } from '../api/services/plans/plans.ts';
import { pricesFor } from '../api/lib/provider-prices.ts';
import { spendLines } from '../api/lib/provider-spend.ts';
import { SUBSCRIPTION_STATUSES, TIERS } from '../common/constants.ts';

const HELP = `Usage: npm run admin -- <command>

Commands:
  users                              list users with their role, plan and company
  set-plan <email> <tier> [status]   set a user's plan (and their consultant profile's)
                                     tiers: ${TIERS.join(', ')}
                                     statuses: ${SUBSCRIPTION_STATUSES.join(', ')} (default active)
                                     (with Stripe configured, billing keeps paid plans in step)
  billing-setup                      create or update the Stripe products, monthly and annual
                                     prices, webhook endpoint and customer portal (safe to re-run)
  refund <email>                     refund the latest payment of a subscription younger than
                                     30 days and cancel it (older ones are refused with the reason)
  jobs [status]                      latest jobs (${JOB_STATUSES.join(', ')}), with the reason of failures
  retry-job <id>                     queue a failed job again; it resumes from its saved progress
  send-waiting-mail                  once the mail server is back: the e-mail waiting for it goes
                                     out now, not at each job's next try
  backup <file>                      copy the database (a file database) to a new file, while it serves
  forget <email>                     erase what visitors left under an address (free-report requests,
                                     businesses no account holds, reports and their files, contact
                                     messages, outbox copies) and print what was removed and kept
  purge-expired                      run the daily purge now: free reports past their retention, closed
                                     accounts past their ${ACCOUNT_GRACE_DAYS} days, expired export archives
  export <email>                     queue an export of an account (open or closed) for a request that
                                     arrives by e-mail; its link is e-mailed to the account's address
  spend [--days N]                   what provider calls cost today (and the N-1 days before it):
                                     dollars and calls per provider and SKU, the free monthly
                                     allowance used, against PROVIDER_DAILY_BUDGET_USD
  --help                             show this help

Settings (DATA_DIR, DATABASE_URL, ...) are read as \`npm start\` reads them.`;

/** `--days N` of `spend`, 1 without it; null when it is not a whole number from 1 to 366. */
function spendDays(rest: string[]): number | null {
  if (rest.length === 0) return 1;
  const n = rest.length === 2 && rest[0] === '--days' && /^\d+$/.test(rest[1]!) ? Number(rest[1]) : NaN;
  return n >= 1 && n <= 366 ? n : null;
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP);
    return command ? 0 : 1;
  }
  if (!['users', 'set-plan', 'jobs', 'retry-job', 'send-waiting-mail', 'backup', 'billing-setup', 'refund', 'forget', 'purge-expired', 'export', 'spend'].includes(command)) {
    console.error(`Unknown command '${command}'.\n\n${HELP}`);
    return 1;
  }
  if (command === 'set-plan' && (rest.length < 2 || rest.length > 3)) {
    console.error('Usage: npm run admin -- set-plan <email> <tier> [status]');
    return 1;
  }
  if ((command === 'retry-job' || command === 'backup' || command === 'refund' || command === 'forget' || command === 'export') && rest.length !== 1) {
    console.error(`Usage: npm run admin -- ${command} ${command === 'backup' ? '<file>' : command === 'refund' || command === 'forget' || command === 'export' ? '<email>' : '<id>'}`);
    return 1;
  }
  const days = command === 'spend' ? spendDays(rest) : 1;
  if (days === null) {
    console.error('Usage: npm run admin -- spend [--days N] (N from 1 to 366)');
    return 1;
  }
  const env = loadEnv({ ...process.env, LOG_LEVEL: 'silent' });
  // Run without the server's settings, the command would make a new, empty database of its own
  // and answer from it ("No users yet"): it names the one it would use and stops (decision 0243).
  const file = env.DATABASE_URL.startsWith('file:') ? env.DATABASE_URL.slice('file:'.length) : null;
  if (file && !existsSync(file)) {
    console.error(`No database at ${file} (DATA_DIR=${env.DATA_DIR}${process.env.DATABASE_URL ? `, DATABASE_URL=${env.DATABASE_URL}` : ', DATABASE_URL unset'}). Run the command with the server's settings (DATA_DIR, or DATABASE_URL and DATABASE_AUTH_TOKEN), as \`npm start\` gets them.`);
    return 1;
  }
  const ctx = await createContext(env, { migrate: true });
  if ((command === 'billing-setup' || command === 'refund') && !billingConfigured(ctx.env)) {
    console.error(`${NOT_CONFIGURED_MESSAGE} Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY first.`);
    ctx.db.$client.close();
    return 1;
  }
  try {
    if (command === 'users') {
      const rows = await listUsers(ctx);
      if (!rows.length) console.log('No users yet.');
      for (const r of rows) {
        console.log([r.email, r.role, `${r.tier}/${r.status}`, r.company ?? '-', r.createdAt.toISOString()].join('\t'));
      }
    } else if (command === 'jobs') {
      const rows = await listJobs({ ctx, status: rest[0] });
      const backlog = await mailBacklog(ctx);
      if (backlog.waiting) console.log(`Waiting for the mail server: ${backlog.waiting} job(s), the oldest queued ${backlog.oldestSince}; they retry on their own (send-waiting-mail: now).`);
      if (!rows.length) console.log('No jobs.');
      for (const j of rows) {
        console.log([j.id, j.type, j.status, `${j.attempts}/${j.maxAttempts}`, j.updatedAt.toISOString(), j.lastError ?? ''].join('\t'));
      }
    } else if (command === 'spend') {
      for (const line of await spendLines(ctx.db, pricesFor(ctx.env), { budgetUsd: ctx.env.PROVIDER_DAILY_BUDGET_USD, days })) console.log(line);
    } else if (command === 'backup') {
      const { path, bytes } = await backupDatabase({ ctx, target: rest[0]! });
      console.log(`Database copied to ${path} (${(bytes / 1024).toFixed(0)} KB).`);
    } else if (command === 'billing-setup') {
      for (const line of await setupBilling({ ctx })) console.log([line.action.padEnd(9), line.what, line.detail ?? ''].join('\t').trimEnd());
    } else if (command === 'refund') {
      const r = await refundSubscription({ ctx, email: rest[0]! });
      console.log(`Refunded ${r.amount.toFixed(2)} ${r.currency.toUpperCase()} to ${r.email} (${r.refundId}); subscription ${r.subscriptionId}, ${r.days} days old, is cancelled.`);
    } else if (command === 'forget') {
      console.log(describeErasure(rest[0]!, await forgetEmail(ctx, rest[0]!)));
    } else if (command === 'export') {
      const { email } = await requestAccountExport(ctx, rest[0]!);
      console.log(`Export queued for ${email}: the worker builds it and e-mails the download link (valid 7 days) to that address.`);
    } else if (command === 'purge-expired') {
      const { freeReports: r, closedAccounts, expiredExports, expiredDomainClaims } = await runRetentionPurge(ctx);
      console.log(`Free reports with no request since ${r.cutoff.toISOString().slice(0, 10)} erased: ${r.businesses} business(es), ${r.reports} report(s), ${r.reportFiles} file folder(s).`);
      console.log(`Closed accounts past their ${ACCOUNT_GRACE_DAYS} days erased: ${closedAccounts}.`);
      console.log(`Expired export archives removed: ${expiredExports}.`);
      console.log(`Report domain claims unverified for ${REPORT_DOMAIN_CLAIM_DAYS} days released (their agencies e-mailed): ${expiredDomainClaims}.`);
    } else if (command === 'send-waiting-mail') {
      const n = await sendWaitingMail({ ctx });
      console.log(n ? `${n} job(s) waiting for the mail server are due now: a running worker sends them within seconds.` : 'No e-mail is waiting for the mail server.');
    } else if (command === 'retry-job') {
      const job = await retryJob({ ctx, id: rest[0]! });
      console.log(`${job.type} ${job.id} is queued again.`);
    } else {
      const [email, tier, status] = rest as [string, string, string | undefined];
      const result = await setPlan(ctx, { email, tier, status });
      console.log(`${result.email} is now on ${result.tier} (${result.status})${result.consultantUpdated ? ', consultant profile too' : ''}.`);
    }
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    ctx.db.$client.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof EnvError ? error.message : error);
  process.exitCode = 1;
}
