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
