// The network an address belongs to, as one household, office or hosting customer is usually
// given it: the /24 of an IPv4 address, the /48 of an IPv6 one (decision 0350). Parsed by
// ipaddr.js, as the fetcher's address guard parses (lib/safe-fetch.ts).
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** "203.0.113.0/24", "2001:0db8:0001::/48"; an IPv4-mapped IPv6 address counts as its IPv4; anything else is its own network. */
export function networkOf(ip: string): string {
  const bare = ip.replace(/%.*$/, '');
  if (!isIP(bare)) return ip;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv4') return `${parsed.toByteArray().slice(0, 3).join('.')}.0/24`;
  return `${(parsed as ipaddr.IPv6).parts.slice(0, 3).map((p) => p.toString(16).padStart(4, '0')).join(':')}::/48`;
}
