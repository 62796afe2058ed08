// What a job handler receives. The worker (api/jobs/worker.ts) claims a job, then calls the
// handler registered for its type. Handlers must be idempotent per stage: they record progress
// with saveProgress, and on a retry they receive the progress saved so far. A leaf module: job
// definitions import their types here (and their errors from ./errors.ts), never the registry
// or the worker.
import type { AppContext } from '../context.ts';

export interface JobRun<P = Record<string, unknown>> {
  id: string;
  type: string;
  payload: P;
  attempts: number;
  progress: Record<string, unknown>;
}

export interface JobTools {
  /** Merges into the job's stored progress (survives a crash). */
  saveProgress: (patch: Record<string, unknown>) => Promise<void>;
  /** Aborted when the worker lets go of the job (shutdown past the grace period, lease lost). */
  signal: AbortSignal;
}

export type JobHandler<P = Record<string, unknown>> = (ctx: AppContext, job: JobRun<P>, tools: JobTools) => Promise<void>;

export interface JobDefinition<P = Record<string, unknown>> {
  run: JobHandler<P>;
  /** Called once when the worker gives up on a job (attempts used up or a permanent error). */
  onGiveUp?: (ctx: AppContext, job: JobRun<P>, reason: string) => Promise<void>;
  /** How long one attempt may run before the worker aborts it and puts the job back in line
   *  (api/jobs/worker.ts JOB_DEADLINE_MS when not set). */
  deadlineMs?: number;
  /** The job talks to a server a customer chose (an agency's mail server, a webhook endpoint), so
   *  it runs in the worker's customer lane and never holds the slots our own jobs need: `true` for
   *  every job of the type, `{ payloadField }` for those whose payload has that field (decision 0210). */
  customerServer?: true | { payloadField: string };
  /** Called each time the job goes back to wait for a customer's server
   *  (CustomerServerUnavailableError), with what the server did. */
  onWait?: (ctx: AppContext, job: JobRun<P>, reason: string) => Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JobRegistry = Record<string, JobDefinition<any>>;

/** Payload of the job the free-report intake enqueues. */
export interface ReportGeneratePayload {
  requestId: string;
  businessId: string;
  /** A widget lead's report, or one requested over the API for a client: the consultant's, in the
   *  widget key's or the client's branding (white-label). */
  consultantId?: string;
  brandingProfileId?: string | null;
  /** The consultant's client the report is for (public API, `clientId`). */
  clientId?: string;
}

/** Payloads of the jobs the scheduler (api/jobs/schedule.ts) enqueues. */
export interface ReanalysePayload {
  businessId: string;
  period: string;
}
export interface MonthlyReportPayload {
  businessId: string;
  period: string;
  /** The account the report goes to: the owner, or the consultant whose client it is. */
  userId: string;
}
