// The browser's one fetch helper. Any non-success answer raises an error whose message is
// "<status>: <body text or status text>", as the spec says; screens match on that text.
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
  /** The parsed `{ code, message, fields? }` body (with a proof-of-work `challenge` when one is asked for), when the server sent one. */
  get details(): { code?: string; message?: string; fields?: Record<string, string>; challenge?: unknown } {
    try {
      return JSON.parse(this.body);
    } catch {
      return {};
    }
  }
}

export async function apiRequest<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'include',
    headers: payload === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  if (!res.ok) throw new ApiError(res.status, res.statusText, await res.text());
  if (res.status === 204) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('application/json') ? res.json() : res.text()) as Promise<T>;
}

/** The server's message for a failed call, or the fallback text. */
export function messageOf(error: unknown, fallback: string): string {
  return (error instanceof ApiError && error.details.message) || fallback;
}
