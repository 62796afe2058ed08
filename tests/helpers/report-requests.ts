// A stored free-report request and its queued job, as the intake leaves them.
import { enqueue } from '../../api/jobs/queue.ts';
import type { AppContext } from '../../api/context.ts';
import { businesses, reportRequests } from '../../db/schema/businesses.ts';
import { uniqueEmail } from './factories.ts';

export interface RequestOptions {
  email?: string;
  company?: string;
  userId?: string | null;
  /** false: store the request without queueing its job (jobId is then ''; the test runs the handler). */
  enqueue?: boolean;
}

export async function createReportRequest(ctx: AppContext, options: RequestOptions = {}) {
  const email = options.email ?? uniqueEmail('owner');
  const form = {
    fullName: 'Dana Whitfield',
    email,
    company: options.company ?? 'Austin Family Dental',
    role: 'owner',
    website: 'https://www.austinfamilydental.example',
    address: '100 Lamar Blvd',
    city: 'Austin',
    state: 'TX',
    zip: '78701',
  };
  const [business] = await ctx.db.insert(businesses).values({ ...form, userId: options.userId ?? null }).returning();
  const [request] = await ctx.db
    .insert(reportRequests)
    .values({ businessId: business!.id, userId: options.userId ?? null, email, fingerprint: `${email}|${form.company}`, payload: form, marketingConsent: true })
    .returning();
  if (options.enqueue === false) return { business: business!, request: request!, jobId: '' };
  const jobId = await enqueue(ctx.db, { type: 'report.generate', payload: { requestId: request!.id, businessId: business!.id }, key: `report:${request!.id}` });
  return { business: business!, request: request!, jobId: jobId! };
}

let formSeq = 0;

/** A valid free-report form for a fresh address and company; `overrides` replace its fields. */
export function validForm(overrides: Record<string, unknown> = {}) {
  formSeq++;
  return {
    fullName: 'Maria Lopez',
    email: uniqueEmail('owner'),
    company: `Lopez Plumbing ${formSeq}`,
    role: 'owner',
    website: 'https://lopezplumbing.example.com',
    address: '1200 Barton Springs Rd',
    city: 'Austin',
    state: 'TX',
    zip: '78704',
    ...overrides,
  };
}

/** POST /api/submit-request with a valid form for a fresh address and company, from its own IP
 *  (the app must trust X-Forwarded-For); the status, Retry-After and body. */
export async function submitForm(app: { request: (path: string, init: RequestInit) => Response | Promise<Response> }) {
  const body = validForm({ email: uniqueEmail('form') });
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${formSeq % 250}` };
  const res = await app.request('/api/submit-request', { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { code?: string; requestId?: string } };
}
