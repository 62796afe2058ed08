// A branding profile's own report domain (issue 25, decision 0172): the agency points a host of
// its own (reports.agency.example) at the product with a CNAME (an A or AAAA record when the
// product is on an IP address) and proves it controls it with a TXT record; once verified, every
// link of that profile's e-mails goes to that host, and that host serves only that agency's
// reports and the pages their links open (api/services/report-domains/host.ts).
// A domain is an agency's only once verified (issue 36, decision 0213): adding it is a claim that
// blocks nobody, so any number of agencies may claim one domain, each with its own token. The
// first to verify keeps it (one verified row per domain, by a unique index); the other claims are
// released right after and their agencies e-mailed. A claim not verified within
// REPORT_DOMAIN_CLAIM_DAYS is released by the daily purge (`releaseExpiredClaims`), e-mailed too.
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { and, eq, isNotNull, isNull, lt, ne } from 'drizzle-orm';
import { users } from '../../../db/schema/auth.ts';
import { brandingProfiles, consultants, type ReleasedDomain } from '../../../db/schema/consultants.ts';
import type { AppContext } from '../../context.ts';
import { ACCOUNT_EMAIL, type AccountEmailPayload } from '../../email/account-email.ts';
import { AppError } from '../../errors.ts';
import { enqueueStatement } from '../../jobs/queue.ts';
import { errorText } from '../../log.ts';
import { ownedProfile } from '../branding/profiles.ts';
import type { ConsultantAccess } from '../plans/consultant-access.ts';
import { domainSetup, normaliseDomain, REPORT_DOMAIN_CLAIM_DAYS, TXT_LABEL, TXT_VALUE_PREFIX } from './records.ts';

export { type DomainSetup, REPORT_DOMAIN_CLAIM_DAYS, TXT_LABEL, TXT_VALUE_PREFIX } from './records.ts';

/** How long a DNS answer may take before verification says so. */
const DNS_TIMEOUT_MS = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;

const invalid = (message: string) => new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { domain: message } });
const TAKEN_MESSAGE = (domain: string) => `Another account verified ${domain} first, so it is theirs now and this claim was released. If the domain is yours, check who can change its DNS records.`;

/** Sets (or changes) the profile's domain: a new claim and token, not verified until its TXT record is seen. */
export async function setReportDomain(ctx: AppContext, { access, profileId, input }: { access: ConsultantAccess; profileId: string; input: string }) {
  const row = await ownedProfile(ctx, access, profileId);
  const domain = normaliseDomain(input);
  if (!domain) throw invalid('Enter a host name like reports.youragency.com');
  const ours = new URL(ctx.env.PUBLIC_BASE_URL).hostname;
  if (domain === ours || domain.endsWith(`.${ours}`)) throw invalid('Use a host of your own domain, not ours.');
  if (row.customDomain === domain) return domainSetup(ctx, row);
  const others = await ctx.db.query.brandingProfiles.findMany({ where: and(eq(brandingProfiles.customDomain, domain), ne(brandingProfiles.id, row.id)) });
  // Only a verification holds a domain; another agency's unverified claim does not stop this one.
  if (others.some((p) => p.domainVerifiedAt)) throw invalid('This domain is already in use by another branding profile.');
  const ownOther = others.find((p) => p.consultantId === row.consultantId);
  if (ownOther) throw invalid(`This domain is already added to your profile ${ownOther.companyName}.`);
  const token = randomBytes(18).toString('base64url');
  const now = new Date();
  const claim = { customDomain: domain, domainToken: token, domainClaimedAt: now, domainVerifiedAt: null, domainReleased: null };
  await ctx.db.update(brandingProfiles).set({ ...claim, updatedAt: now }).where(eq(brandingProfiles.id, row.id));
  return domainSetup(ctx, claim);
}

export async function removeReportDomain(ctx: AppContext, access: ConsultantAccess, profileId: string) {
  const row = await ownedProfile(ctx, access, profileId);
  // Also dismisses the note of a released claim.
  await ctx.db
    .update(brandingProfiles)
    .set({ customDomain: null, domainToken: null, domainClaimedAt: null, domainVerifiedAt: null, domainReleased: null, updatedAt: new Date() })
    .where(eq(brandingProfiles.id, row.id));
  return { removed: true };
}

/** The resolver verification asks: DNS_SERVERS when set (tests: a local server), else the system's. */
function resolverFor(ctx: AppContext): Resolver {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
  if (ctx.env.DNS_SERVERS.length) resolver.setServers(ctx.env.DNS_SERVERS);
  return resolver;
}

interface Claim {
  id: string;
  domain: string;
  token: string;
  email: string;
}

/** Claims (unverified) on profiles matching `where`, with the e-mail address of the agency's account. */
async function claimsWhere(ctx: AppContext, where: ReturnType<typeof and>): Promise<Claim[]> {
  const rows = await ctx.db
    .select({ id: brandingProfiles.id, domain: brandingProfiles.customDomain, token: brandingProfiles.domainToken, email: users.email })
    .from(brandingProfiles)
    .innerJoin(consultants, eq(consultants.id, brandingProfiles.consultantId))
    .innerJoin(users, eq(users.id, consultants.userId))
    .where(and(where, isNull(brandingProfiles.domainVerifiedAt), isNotNull(brandingProfiles.domainToken)));
  return rows.filter((r): r is Claim => r.domain !== null && r.token !== null);
}

/** The statements that release `claim` (only while it is still that claim: same token, unverified) and e-mail its agency. */
function releaseStatements(ctx: AppContext, claim: Claim, reason: ReleasedDomain['reason'], now: Date) {
  const released: ReleasedDomain = { domain: claim.domain, reason, at: now.toISOString() };
  const email: AccountEmailPayload = {
    kind: reason === 'taken' ? 'report-domain-taken' : 'report-domain-expired',
    to: claim.email,
    url: `${ctx.env.PUBLIC_BASE_URL}/branding`,
    domain: claim.domain,
    ref: claim.token.slice(0, 12),
  };
  return [
    ctx.db
      .update(brandingProfiles)
      .set({ customDomain: null, domainToken: null, domainClaimedAt: null, domainReleased: released, updatedAt: now })
      .where(and(eq(brandingProfiles.id, claim.id), eq(brandingProfiles.domainToken, claim.token), isNull(brandingProfiles.domainVerifiedAt))),
    enqueueStatement(ctx.db, { type: ACCOUNT_EMAIL, payload: { ...email }, key: `report-domain-released:${claim.id}:${claim.token}` }),
  ] as const;
}

/** Looks the TXT record up; verified when one of its values is the profile's. Says what was found when not. */
export async function verifyReportDomain(ctx: AppContext, access: ConsultantAccess, profileId: string) {
  const row = await ownedProfile(ctx, access, profileId);
  const setup = domainSetup(ctx, row);
  if (!setup) {
    // Released by another profile's verification that finished before this one began (two at
    // once, decision 0213): say so, as a verification that lost in the middle does.
    const released = row.domainReleased;
    if (released?.reason === 'taken') return { domain: released.domain, verified: false, verifiedAt: null, claimExpiresAt: null, records: [], targetProblem: null, problem: TAKEN_MESSAGE(released.domain), released: true };
    throw new AppError('not_found', 'Add a report domain first.');
  }
  if (setup.verified) return { ...setup, problem: null };
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
  if (problem) return { ...setup, problem };

  // Proven: this profile takes the domain (the unique index refuses a second verified row)...
  const now = new Date();
  const mine = and(eq(brandingProfiles.id, row.id), eq(brandingProfiles.domainToken, row.domainToken!), isNull(brandingProfiles.domainVerifiedAt));
  let won: unknown[];
  try {
    won = await ctx.db.update(brandingProfiles).set({ domainVerifiedAt: now, updatedAt: now }).where(mine).returning({ id: brandingProfiles.id });
  } catch (error) {
    if (!/UNIQUE constraint failed: branding_profiles\.custom_domain/.test(errorText(error))) throw error;
    // Another profile's verification of this domain landed first: this claim is the one released.
    await ctx.db
      .update(brandingProfiles)
      .set({ customDomain: null, domainToken: null, domainClaimedAt: null, domainReleased: { domain: setup.domain, reason: 'taken', at: now.toISOString() }, updatedAt: now })
      .where(mine);
    return { ...setup, problem: TAKEN_MESSAGE(setup.domain), released: true };
  }
  if (!won.length) {
    // The claim changed while DNS answered: released by another's verification, or replaced.
    const fresh = await ownedProfile(ctx, access, profileId);
    if (fresh.domainReleased?.domain === setup.domain) return { ...setup, problem: TAKEN_MESSAGE(setup.domain), released: true };
    return { ...(domainSetup(ctx, fresh) ?? setup), problem: 'This domain changed while it was being checked. Reload the page.' };
  }
  // ...and every other claim on it is released, each agency e-mailed (in one batch). Should this
  // not happen (a crash), such a claim can never verify (it is released when it tries) and ends
  // with the daily purge.
  const others = await claimsWhere(ctx, and(eq(brandingProfiles.customDomain, setup.domain), ne(brandingProfiles.id, row.id)));
  const [first, ...rest] = others.flatMap((claim) => releaseStatements(ctx, claim, 'taken', now));
  if (first) {
    await ctx.db.batch([first, ...rest]);
    ctx.log.info('report domain verified: other claims released', { domain: setup.domain, profileId: row.id, released: others.length });
  }
  return { ...setup, verified: true, verifiedAt: now.toISOString(), claimExpiresAt: null, problem: null };
}

/** Releases the claims not verified within REPORT_DOMAIN_CLAIM_DAYS, e-mailing each agency; returns how many. Run by the daily purge. */
export async function releaseExpiredClaims(ctx: AppContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - REPORT_DOMAIN_CLAIM_DAYS * DAY_MS);
  const expired = await claimsWhere(ctx, and(isNotNull(brandingProfiles.customDomain), lt(brandingProfiles.domainClaimedAt, cutoff)));
  if (!expired.length) return 0;
  const [first, ...rest] = expired.flatMap((claim) => releaseStatements(ctx, claim, 'expired', now));
  await ctx.db.batch([first!, ...rest]);
  ctx.log.info('unverified report domain claims released', { released: expired.length, olderThanDays: REPORT_DOMAIN_CLAIM_DAYS });
  return expired.length;
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
