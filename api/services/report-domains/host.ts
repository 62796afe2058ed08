// Which requests a host may make (decision 0172). Our own host (PUBLIC_BASE_URL's, or loopback)
// gets everything. A verified report domain of an agency gets that agency's reports and what
// their links open (the online report, its PDF and score card, unsubscribe, delete my data, the
// logos, the page assets); any other path there is 404. Any other host is refused (421), so a
// name pointed at the server by someone else serves nothing.
import { AsyncLocalStorage } from 'node:async_hooks';
import { eq } from 'drizzle-orm';
import { brandingProfiles } from '../../../db/schema/consultants.ts';
import type { AppContext } from '../../context.ts';
import type { Branding } from '../../report/model/branding.ts';
import { domainBranding } from '../branding/sender.ts';
import { verifiedDomain } from './domains.ts';
import { findReportByToken, type ReportLookup } from '../reports.ts';

/** A report the gate looked up by its token to let the request in: the page reuses it. */
export type GateLookup = { token: string; found: ReportLookup };
export type HostDecision =
  | { kind: 'ours' }
  | { kind: 'report-domain'; consultantId: string; lookup?: GateLookup }
  | { kind: 'refused'; status: 404 | 421; message: string };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
/** How long a host's answer is remembered (a domain verified or removed takes effect within it). */
const CACHE_MS = 30_000;
const CACHE_MAX = 1000;

/** The host of a Host header, lower case, without its port. */
export function hostOf(header: string | undefined): string {
  const host = (header ?? '').trim().toLowerCase();
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
}

/** Paths a report domain serves without a report token: the page assets, the logos (public
 *  anyway), the sample data's example homepages (their links in a white-label report), and the
 *  "Delete my data" page. Not our favicon: a white-label page's icon is the agency's logo. */
const OPEN_PATHS = [/^\/_astro\/[\w.-]+$/, /^\/api\/branding\/logos\/[\w.-]+$/, /^\/api\/sample-sites\/[\w./-]+$/, /^\/delete-data$/];

/** What a report domain answers for a path it does not serve: a page that names nobody (not our
 *  404 page, which is ours in every line). */
export const REPORT_DOMAIN_NOT_FOUND =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Page not found</title></head>' +
  '<body><main><h1>Page not found</h1><p>There is no page at this address. If you followed a link from an e-mail, check that you opened the whole link.</p></main></body></html>';
/** Paths that name a report by its token: served when the report is the agency's. */
const REPORT_PATHS: Array<[RegExp, (url: URL, match: RegExpExecArray) => string | null]> = [
  [/^\/report\/([\w-]+)$/, (_, m) => m[1]!],
  [/^\/api\/reports\/([\w-]+)\/(report\.pdf|score-card\.png)$/, (_, m) => m[1]!],
  [/^\/unsubscribe$/, (url) => url.searchParams.get('token')],
  [/^\/api\/unsubscribe$/, (url) => url.searchParams.get('token')],
];

export function reportHostGate(ctx: AppContext) {
  const ours = hostOf(new URL(ctx.env.PUBLIC_BASE_URL).host);
  const cache = new Map<string, { at: number; consultantId: string | null }>();

  async function agencyOf(host: string, now: number): Promise<string | null> {
    const hit = cache.get(host);
    if (hit && now - hit.at < CACHE_MS) return hit.consultantId;
    const found = await verifiedDomain(ctx, host);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(host, { at: now, consultantId: found?.consultantId ?? null });
    return found?.consultantId ?? null;
  }

  /** Whose report a lookup found: its consultant, or its profile's. */
  async function reportAgency(found: ReportLookup): Promise<string | null> {
    if (found.state === 'unknown') return null;
    if (found.report.consultantId) return found.report.consultantId;
    if (!found.report.brandingProfileId) return null;
    const profile = await ctx.db.query.brandingProfiles.findFirst({ columns: { consultantId: true }, where: eq(brandingProfiles.id, found.report.brandingProfileId) });
    return profile?.consultantId ?? null;
  }

  return async function decide(hostHeader: string | undefined, path: string, now = Date.now()): Promise<HostDecision> {
    const host = hostOf(hostHeader);
    if (host === ours || LOOPBACK.has(host)) return { kind: 'ours' };
    const consultantId = host ? await agencyOf(host, now) : null;
    if (!consultantId) return { kind: 'refused', status: 421, message: 'This host is not served here.' };
    const url = new URL(path, 'http://host');
    if (OPEN_PATHS.some((p) => p.test(url.pathname))) return { kind: 'report-domain', consultantId };
    for (const [pattern, tokenOf] of REPORT_PATHS) {
      const match = pattern.exec(url.pathname);
      if (!match) continue;
      const token = tokenOf(url, match);
      if (!token) break;
      const found = await findReportByToken(ctx, token);
      if ((await reportAgency(found)) === consultantId) return { kind: 'report-domain', consultantId, lookup: { token, found } };
      break;
    }
    return { kind: 'refused', status: 404, message: 'Not found' };
  };
}

// The server runs the rest of a request inside the gate's lookup; Astro's bundle carries its own
// copy of this module, so the store is one per process, on globalThis (as the shared context).
const SCOPE = Symbol.for('localrank.gate-lookup');
const scope = ((globalThis as { [SCOPE]?: AsyncLocalStorage<GateLookup> })[SCOPE] ??= new AsyncLocalStorage<GateLookup>());

/** Runs `next` (the rest of the request) where `reportForPage` finds the gate's lookup. */
export function withGateLookup<T>(lookup: GateLookup | undefined, next: () => T): T {
  return lookup ? scope.run(lookup, next) : next();
}

/** The report a page shows for a token: the one the host gate found for this request, else looked up. */
export async function reportForPage(ctx: AppContext, token: string): Promise<ReportLookup> {
  const seen = scope.getStore();
  return seen?.token === token ? seen.found : await findReportByToken(ctx, token);
}

/** The agency's branding when the request came in on its verified report domain, else null (our own host). */
export async function hostBranding(ctx: AppContext, hostHeader: string | null | undefined): Promise<Branding | null> {
  const host = hostOf(hostHeader ?? undefined);
  if (!host || LOOPBACK.has(host) || host === hostOf(new URL(ctx.env.PUBLIC_BASE_URL).host)) return null;
  const domain = await verifiedDomain(ctx, host);
  return domain ? await domainBranding(ctx, domain) : null;
}

/** Caddy's `on_demand_tls ask`: may a certificate be issued for this host? Ours or a verified report domain. */
export async function certificateAllowed(ctx: AppContext, domain: string): Promise<boolean> {
  const host = hostOf(domain);
  if (!host) return false;
  if (host === hostOf(new URL(ctx.env.PUBLIC_BASE_URL).host)) return true;
  return (await verifiedDomain(ctx, host)) !== null;
}
