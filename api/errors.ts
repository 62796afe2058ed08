// The one error type. Services throw it; the app's onError turns it into { code, message, fields? }.
export const ERROR_STATUS = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  // A paid feature asked for on a plan that does not include it (the screen offers the upgrade).
  plan_required: 403,
  not_found: 404,
  conflict: 409,
  // The public API's Idempotency-Key reused with another request.
  unprocessable: 422,
  gone: 410,
  payload_too_large: 413,
  // A body in another media type than the route reads (the public API's JSON routes).
  unsupported_media_type: 415,
  // Answered by the node server itself (api/lib/methods.ts), before the app sees the request.
  method_not_allowed: 405,
  headers_too_large: 431,
  rate_limited: 429,
  // A feature this server has not been set up for (billing without Stripe keys): not here, rather
  // than a server failure; the message says what the operator has to do.
  not_configured: 404,
  // Refused at once because the server is saturated (password hashing); Retry-After says when.
  busy: 503,
  // The disk (or the database) is full: nothing was stored, Retry-After says when to try again.
  storage_full: 503,
  // The database file cannot be written (its owner or mode, a volume remounted read-only).
  storage_readonly: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: Record<string, string>;
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, extra: { fields?: Record<string, string>; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fields = extra.fields;
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }

  get status() {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (message = 'Not found') => new AppError('not_found', message);
export const unauthenticated = (message = 'Not authenticated') => new AppError('unauthenticated', message);
export const forbidden = (message = 'Forbidden') => new AppError('forbidden', message);
