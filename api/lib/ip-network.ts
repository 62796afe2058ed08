// The network an address belongs to, as one household, office or hosting customer is usually
// given it: the /24 of an IPv4 address, the /48 of an IPv6 one (decision 0350).
import { isIPv4, isIPv6 } from 'node:net';

/** Eight groups of four hex digits, however the address was written. */
function ipv6Groups(ip: string): string[] | null {
  let text = ip.toLowerCase().split('%')[0]!;
  // An IPv4 tail (::ffff:192.0.2.1) as two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number);
    text = text.slice(0, -v4[1]!.length) + `${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  return [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((g) => g.padStart(4, '0'));
}

/** "203.0.113.0/24", "2001:0db8:0001::/48"; an IPv4-mapped IPv6 address counts as its IPv4; anything else is its own network. */
export function networkOf(ip: string): string {
  if (isIPv4(ip)) return `${ip.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(ip)) {
    const groups = ipv6Groups(ip);
    if (groups) {
      if (groups.slice(0, 6).join('') === '00000000000000000000ffff') return networkOf([0, 1, 2, 3].map((i) => parseInt(groups[6 + (i >> 1)]!, 16) >> (i % 2 ? 0 : 8) & 255).join('.'));
      return `${groups.slice(0, 3).join(':')}::/48`;
    }
  }
  return ip;
}
