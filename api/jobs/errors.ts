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
  constructor(message: string, delayMs: number) {
    super(message);
    this.name = 'RetryLaterError';
    this.delayMs = delayMs;
  }
}
