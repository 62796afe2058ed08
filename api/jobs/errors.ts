// The errors a job handler throws to tell the worker (api/jobs/worker.ts) what to do next. A leaf
// module: job definitions import these, never the worker.

/** A failure that retrying cannot fix (the business was deleted, the payload is malformed). */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** Not a failure: the job must wait (another attempt may still be at work, say) and runs again
 *  after delayMs without counting this attempt. */
export class RetryLaterError extends Error {
  readonly delayMs: number;
  /** The moment to run again, when it is a moment (the next day's start) rather than a delay. */
  readonly until: Date | null;
  constructor(message: string, delayMs: number, until: Date | null = null) {
    super(message);
    this.name = 'RetryLaterError';
    this.delayMs = delayMs;
    this.until = until;
  }
}

/** A server a customer chose (an agency's mail server) is away: not found in DNS, refusing
 *  connections, silent, or answering "try later". The job waits for it on the mail schedule
 *  (api/jobs/faults.ts MAIL_RETRY_DELAYS_MS) without spending attempts, and the worker goes on
 *  with everything else: it is one tenant's server, not ours. `owner` is the consultant whose
 *  server it is (its waiting jobs are run at once when the server is fixed). */
export class CustomerServerUnavailableError extends Error {
  readonly owner: string;
  constructor(message: string, owner: string) {
    super(message);
    this.name = 'CustomerServerUnavailableError';
    this.owner = owner;
  }
}
