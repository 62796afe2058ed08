// A report domain's facts (decision 0172): how a domain is written, and the DNS records that set
// it up. A leaf module: the branding profiles' answers and the domain service both read it.
import type { AppContext } from '../context.ts';

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
  /** The records the agency adds at its DNS host. */
  records: { type: 'CNAME' | 'TXT'; name: string; value: string }[];
}

export function domainSetup(ctx: AppContext, row: { customDomain: string | null; domainToken: string | null; domainVerifiedAt: Date | null }): DomainSetup | null {
  if (!row.customDomain || !row.domainToken) return null;
  return {
    domain: row.customDomain,
    verified: row.domainVerifiedAt !== null,
    verifiedAt: row.domainVerifiedAt?.toISOString() ?? null,
    records: [
      { type: 'CNAME', name: row.customDomain, value: new URL(ctx.env.PUBLIC_BASE_URL).hostname },
      { type: 'TXT', name: `${TXT_LABEL}.${row.customDomain}`, value: `${TXT_VALUE_PREFIX}${row.domainToken}` },
    ],
  };
}

