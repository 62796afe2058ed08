// A branding profile's own report domain (issue 25, decision 0172): the agency points a host of
// its own (reports.agency.example) at the product with a CNAME and proves it controls it with a
// TXT record; once verified, every link of that profile's e-mails goes to that host, and that host
// serves only that agency's reports and the pages their links open (api/lib/report-host.ts).
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { and, eq, isNotNull } from 'drizzle-orm';
import { brandingProfiles } from '../../db/schema/consultants.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { ownedProfile } from './branding-profiles.ts';
import type { ConsultantAccess } from './consultant-access.ts';
import { domainSetup, normaliseDomain, TXT_LABEL, TXT_VALUE_PREFIX } from './report-domain-records.ts';

export { type DomainSetup, TXT_LABEL, TXT_VALUE_PREFIX } from './report-domain-records.ts';

/** How long a DNS answer may take before verification says so. */
const DNS_TIMEOUT_MS = 5000;

const invalid = (message: string) => new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { domain: message } });

/** Sets (or changes) the profile's domain: a new token, not verified until its TXT record is seen. */
export async function setReportDomain(ctx: AppContext, access: ConsultantAccess, profileId: string, input: string) {
  const row = await ownedProfile(ctx, access, profileId);
  const domain = normaliseDomain(input);
  if (!domain) throw invalid('Enter a host name like reports.youragency.com');
  const ours = new URL(ctx.env.PUBLIC_BASE_URL).hostname;
  if (domain === ours || domain.endsWith(`.${ours}`)) throw invalid('Use a host of your own domain, not ours.');
  if (row.customDomain === domain) return domainSetup(ctx, row);
  const taken = await ctx.db.query.brandingProfiles.findFirst({ where: eq(brandingProfiles.customDomain, domain) });
  if (taken) throw invalid('This domain is already in use by another branding profile.');
  const token = randomBytes(18).toString('base64url');
  await ctx.db.update(brandingProfiles).set({ customDomain: domain, domainToken: token, domainVerifiedAt: null, updatedAt: new Date() }).where(eq(brandingProfiles.id, row.id));
  return domainSetup(ctx, { customDomain: domain, domainToken: token, domainVerifiedAt: null });
}

export async function removeReportDomain(ctx: AppContext, access: ConsultantAccess, profileId: string) {
  const row = await ownedProfile(ctx, access, profileId);
  await ctx.db.update(brandingProfiles).set({ customDomain: null, domainToken: null, domainVerifiedAt: null, updatedAt: new Date() }).where(eq(brandingProfiles.id, row.id));
  return { removed: true };
}

/** The resolver verification asks: DNS_SERVERS when set (tests: a local server), else the system's. */
function resolverFor(ctx: AppContext): Resolver {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
  if (ctx.env.DNS_SERVERS.length) resolver.setServers(ctx.env.DNS_SERVERS);
  return resolver;
}

/** Looks the TXT record up; verified when one of its values is the profile's. Says what was found when not. */
export async function verifyReportDomain(ctx: AppContext, access: ConsultantAccess, profileId: string) {
  const row = await ownedProfile(ctx, access, profileId);
  const setup = domainSetup(ctx, row);
  if (!setup) throw new AppError('not_found', 'Add a report domain first.');
  const expected = `${TXT_VALUE_PREFIX}${row.domainToken}`;
  let values: string[] = [];
  let problem: string | null = null;
  try {
    values = (await resolverFor(ctx).resolveTxt(`${TXT_LABEL}.${setup.domain}`)).map((chunks) => chunks.join(''));
  } catch (error) {
    const code = (error as { code?: string }).code;
    problem = code === 'ENOTFOUND' || code === 'ENODATA' ? `No TXT record was found at ${TXT_LABEL}.${setup.domain} yet. DNS changes can take a while to appear.` : `The DNS lookup failed (${code ?? 'error'}). Try again in a few minutes.`;
  }
  if (!problem && !values.includes(expected)) problem = `The TXT record at ${TXT_LABEL}.${setup.domain} does not hold the value shown here yet.`;
  if (problem) return { ...setup, verified: false, verifiedAt: null, problem };
  const now = new Date();
  await ctx.db.update(brandingProfiles).set({ domainVerifiedAt: now, updatedAt: now }).where(eq(brandingProfiles.id, row.id));
  return { ...setup, verified: true, verifiedAt: now.toISOString(), problem: null };
}

/** The agency behind a verified report domain, or null (an unknown host). */
export async function verifiedDomain(ctx: AppContext, host: string): Promise<{ consultantId: string; profileId: string } | null> {
  const [row] = await ctx.db
    .select({ consultantId: brandingProfiles.consultantId, profileId: brandingProfiles.id })
    .from(brandingProfiles)
    .where(and(eq(brandingProfiles.customDomain, host.toLowerCase()), isNotNull(brandingProfiles.domainVerifiedAt)))
    .limit(1);
  return row ?? null;
}
