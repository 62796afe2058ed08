// A report domain's facts (decision 0172): how a domain is written, and the DNS records that set
// it up. A leaf module: the branding profiles' answers and the domain service both read it.
import type { AppContext } from '../context.ts';

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
  /** The records the agency adds at its DNS host. */
  records: { type: 'CNAME' | 'TXT'; name: string; value: string }[];
}

export function domainSetup(ctx: AppContext, row: { customDomain: string | null; domainToken: string | null; domainClaimedAt: Date | null; domainVerifiedAt: Date | null }): DomainSetup | null {
  if (!row.customDomain || !row.domainToken) return null;
  return {
    domain: row.customDomain,
    verified: row.domainVerifiedAt !== null,
    verifiedAt: row.domainVerifiedAt?.toISOString() ?? null,
    claimExpiresAt: row.domainVerifiedAt || !row.domainClaimedAt ? null : claimExpiry(row.domainClaimedAt).toISOString(),
    records: [
      { type: 'CNAME', name: row.customDomain, value: new URL(ctx.env.PUBLIC_BASE_URL).hostname },
      { type: 'TXT', name: `${TXT_LABEL}.${row.customDomain}`, value: `${TXT_VALUE_PREFIX}${row.domainToken}` },
    ],
  };
}


/** When a claim made at `claimedAt` ends unless verified. */
export const claimExpiry = (claimedAt: Date) => new Date(claimedAt.getTime() + CLAIM_MS);
