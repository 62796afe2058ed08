// What a job handler receives. The worker (api/jobs/worker.ts) claims a job, then calls the
// handler registered for its type. Handlers must be idempotent per stage: they record progress
// with saveProgress, and on a retry they receive the progress saved so far.
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
