// Which handler runs which job type. Every process that runs a worker builds its registry here,
// so the web process (WORKER=inline), `npm run worker`, the CLI and the tests agree.
import type { AppContext } from '../context.ts';
import { ACCOUNT_EMAIL, accountEmailJob } from '../email/account-email.ts';
import { agencyMailUnavailableJob } from '../email/agency-mail-unavailable.ts';
import { ALERTS_NOTIFY, alertsNotifyJob } from '../services/early-warning-mail.ts';
import { VISIBILITY_ALERT, visibilityAlertJob } from '../services/early-warning-mail.ts';
import { contactNotifyJob } from '../email/contact-notify-job.ts';
import { LEAD_JOBS } from '../services/widget-lead-mail.ts';
import { reportFailedJob } from '../report/failed-job.ts';
import { reportWaitingJob } from '../email/report-waiting.ts';
import { budgetAlertJob } from '../email/budget-alert.ts';
import { BILLING_JOBS } from '../services/billing/jobs.ts';
import { DATA_EXPORT, dataExportJob } from '../services/data-rights/export.ts';
import { ERASURE_SETTLE, erasureSettleJob } from '../services/data-rights/erasure-settle.ts';
import { RETENTION_PURGE, retentionPurgeJob } from '../services/data-rights/retention-job.ts';
import { reportGenerateJob, type ReportJobDeps } from '../report/generate-job.ts';
import { clientReportJob } from '../report/client-report-job.ts';
import { CLIENT_REPORT } from '../services/client-report-schedule.ts';
import { reportMonthlyJob } from '../report/monthly-job.ts';
import { businessReanalyseJob } from '../report/reanalyse-job.ts';
import { WEBHOOK_DISABLED, webhookDisabledJob } from '../email/webhook-disabled.ts';
import { webhookDeliverJob, type WebhookFetchOptions } from '../services/webhooks/delivery.ts';
import { WEBHOOK_DELIVER } from '../services/webhooks/webhooks.ts';
import { REVIEWS_CHECK, reviewsCheckJob } from '../services/review-check.ts';
import { AGENCY_MAIL_UNAVAILABLE } from '../email/agency-mail-unavailable.ts';
import { withReportMailState } from '../services/agency-mail/report-mail-state.ts';
import { PROFILE_POLL, profilePollJob } from '../services/google-profile/poll-job.ts';
import { AI_SCAN, aiScanJob } from '../services/ai-visibility/job.ts';
import type { JobRegistry } from './types.ts';
import type { PlacesProvider } from '../report/analysis/providers/types.ts';

const MINUTE = 60_000;

/** What the jobs need from outside: the analysis pipeline is injected (tests pass a fixture). */
export type JobDeps = Omit<ReportJobDeps, 'analyse'> & { analyse?: ReportJobDeps['analyse']; webhookFetch?: WebhookFetchOptions; placesProvider?: (ctx: AppContext) => PlacesProvider; aiScan?: Parameters<typeof aiScanJob>[0] };

/** Every job type this product runs. `report.generate` needs the analysis; without it, it is left
 *  out, and its jobs wait in the queue for a worker that has it.
 *
 *  The lanes, in one place (decision 0210): the jobs that talk to servers customers choose run in
 *  the worker's customer lane. A client's report leaves through its agency's own mail server when
 *  the agency has one, and so may a report for an agency's lead (a `report.generate` whose payload
 *  names a consultant); webhook deliveries go to the customer's endpoint. */
export function createRegistry(deps: JobDeps): JobRegistry {
  const analyse = deps.analyse;
  return {
    ...(analyse
      ? {
          'report.generate': { ...reportGenerateJob({ ...deps, analyse }), customerServer: { payloadField: 'consultantId' } },
          'business.reanalyse': businessReanalyseJob({ analyse }),
          // While its e-mail waits for the agency's server, or once it failed, the report row says why.
          [CLIENT_REPORT]: { ...withReportMailState(clientReportJob({ analyse, renderer: deps.renderer, onStage: deps.onStage })), customerServer: true },
        }
      : {}),
    'report.monthly': reportMonthlyJob({ renderer: deps.renderer }),
    'contact.notify': contactNotifyJob,
    'report.failed': reportFailedJob,
    'report.waiting': reportWaitingJob,
    'provider.budget-alert': budgetAlertJob,
    [ALERTS_NOTIFY]: alertsNotifyJob,
    [VISIBILITY_ALERT]: visibilityAlertJob,
    [ACCOUNT_EMAIL]: accountEmailJob,
    [AGENCY_MAIL_UNAVAILABLE]: agencyMailUnavailableJob,
    // Every other attempt has the worker's deadline (JOB_DEADLINE_MS, 10 minutes); these two walk
    // whole accounts or the whole table and may take longer.
    [RETENTION_PURGE]: { ...retentionPurgeJob, deadlineMs: 30 * MINUTE },
    [ERASURE_SETTLE]: erasureSettleJob,
    [DATA_EXPORT]: { ...dataExportJob({ renderer: deps.renderer }), deadlineMs: 30 * MINUTE },
    ...BILLING_JOBS,
    ...LEAD_JOBS,
    [WEBHOOK_DELIVER]: { ...webhookDeliverJob(deps.webhookFetch), customerServer: true, deadlineMs: 2 * MINUTE },
    [WEBHOOK_DISABLED]: webhookDisabledJob,
    [REVIEWS_CHECK]: reviewsCheckJob({ provider: deps.placesProvider }),
    [PROFILE_POLL]: { ...profilePollJob, deadlineMs: 5 * MINUTE },
    // Keywords × AI_VISIBILITY_SAMPLES asks per engine, each up to AI_VISIBILITY_TIMEOUT_MS twice.
    [AI_SCAN]: { ...aiScanJob(deps.aiScan), deadlineMs: 30 * MINUTE },
  };
}
