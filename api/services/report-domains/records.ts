// A report domain's facts (decision 0172): how a domain is written, and the DNS records that set
// it up. A leaf module: the branding profiles' answers and the domain service both read it.
import type { AppContext } from '../../context.ts';

/** Days an unverified claim lasts; the daily purge releases it then (decision 0213). */
export const REPORT_DOMAIN_CLAIM_DAYS = 7;
const CLAIM_MS = REPORT_DOMAIN_CLAIM_DAYS * 24 * 60 * 60 * 1000;

/** The TXT record's name is this label under the domain; its value is `VALUE_PREFIX` + the token. */
export const TXT_LABEL = '_report-domain';
export const TXT_VALUE_PREFIX = 'report-domain-verification=';
const HOSTNAME = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A domain as the agency typed it, normalised (lower case, no scheme, path or trailing dot), or null. */
export function normaliseDomain(input: string): string | null {
  const text = input.trim().toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/[/?#].*$/, '').replace(/\.$/, '');
  return HOSTNAME.test(text) ? text : null;
}

export interface DomainSetup {
  domain: string;
  verified: boolean;
  verifiedAt: string | null;
  /** When an unverified claim ends (null once verified). Until verified, another account that
   *  verifies first takes the domain. */
  claimExpiresAt: string | null;
  /** The records the agency adds at its DNS host: the one that points the domain at this server
   *  (see `pointingRecord`) and the TXT record that proves control. */
  records: DnsRecord[];
  /** Why no record points the domain at this server, when none can (a base address on localhost). */
  targetProblem: string | null;
}

export interface DnsRecord {
  type: 'CNAME' | 'A' | 'AAAA' | 'TXT';
  name: string;
  value: string;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The record that points `domain` at the server of `baseUrl` (PUBLIC_BASE_URL). A CNAME may only
 * name a host name, so a base address that is an IP gets an A (IPv4) or AAAA (IPv6) record to it;
 * a name no public resolver answers (localhost, *.localhost, a name without a dot) gets none, and
 * the problem says what the operator must do.
 */
export function pointingRecord(baseUrl: string, domain: string): { record: DnsRecord | null; problem: string | null } {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  if (IPV4.test(host)) return { record: { type: 'A', name: domain, value: host }, problem: null };
  if (host.includes(':')) return { record: { type: 'AAAA', name: domain, value: host }, problem: null };
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    return {
      record: null,
      problem: `This service's own address (${host}) is not a public host name, so there is no address for your domain to point at yet: the service's operator must give it a public host name or IP address first. The TXT record below can be added now.`,
    };
  }
  return { record: { type: 'CNAME', name: domain, value: host }, problem: null };
}

export function domainSetup(ctx: AppContext, row: { customDomain: string | null; domainToken: string | null; domainClaimedAt: Date | null; domainVerifiedAt: Date | null }): DomainSetup | null {
  if (!row.customDomain || !row.domainToken) return null;
  const pointing = pointingRecord(ctx.env.PUBLIC_BASE_URL, row.customDomain);
  return {
    domain: row.customDomain,
    verified: row.domainVerifiedAt !== null,
    verifiedAt: row.domainVerifiedAt?.toISOString() ?? null,
    claimExpiresAt: row.domainVerifiedAt || !row.domainClaimedAt ? null : claimExpiry(row.domainClaimedAt).toISOString(),
    records: [...(pointing.record ? [pointing.record] : []), { type: 'TXT', name: `${TXT_LABEL}.${row.customDomain}`, value: `${TXT_VALUE_PREFIX}${row.domainToken}` }],
    targetProblem: pointing.problem,
  };
}


/** When a claim made at `claimedAt` ends unless verified. */
export const claimExpiry = (claimedAt: Date) => new Date(claimedAt.getTime() + CLAIM_MS);
