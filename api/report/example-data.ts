// The report the branding preview draws: an example business analysed by the real pipeline on the
// sample provider (offline; its website is one of the sample sites the product answers itself),
// so the preview is a real report, labelled "Example figures, not your real listings" like every
// report made from sample data. Made once per process and day.
import type { AppContext } from '../context.ts';
import { analyseBusiness } from './analyse.ts';
import { sampleProvider } from './analysis/providers/sample.ts';
import { sampleSiteUrl } from './analysis/sample-sites.ts';
import type { ReportData } from './model/types.ts';

const EXAMPLE = { company: 'Example Dental Studio', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', phone: '(512) 555-0142' };
const cache = new WeakMap<AppContext, { day: string; data: Promise<ReportData> }>();

export function exampleReportData(ctx: AppContext, now = new Date()): Promise<ReportData> {
  const day = now.toISOString().slice(0, 10);
  const hit = cache.get(ctx);
  if (hit?.day === day) return hit.data;
  const origin = ctx.env.PUBLIC_BASE_URL;
  const website = sampleSiteUrl(origin, { n: EXAMPLE.company, a: `${EXAMPLE.address}, ${EXAMPLE.city}, ${EXAMPLE.state} ${EXAMPLE.zip}`, p: EXAMPLE.phone, c: 'dentist', q: 7 });
  const data = analyseBusiness(
    ctx,
    { businessId: 'branding-preview-example', fullName: 'Dana Example', email: 'dana@example.com', website, ...EXAMPLE },
    { now, provider: sampleProvider({ origin, now }) },
  );
  cache.set(ctx, { day, data });
  data.catch(() => cache.delete(ctx));
  return data;
}
