import { describe, expect, it } from 'vitest';
import { networkOf } from '../../api/lib/ip-network.ts';

describe('networkOf', () => {
  it('gives an IPv4 address its /24 and an IPv6 one its /48, however written', () => {
    expect(networkOf('203.0.113.77')).toBe('203.0.113.0/24');
    expect(networkOf('2001:db8:1::5')).toBe('2001:0db8:0001::/48');
    expect(networkOf('2001:0DB8:0001:ffff:0:0:0:1')).toBe('2001:0db8:0001::/48');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0000:0000::/48');
  });
  it('counts an IPv4-mapped IPv6 address as its IPv4 network, in either spelling', () => {
    expect(networkOf('::ffff:203.0.113.9')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:cb00:7109')).toBe('203.0.113.0/24');
  });
  it('leaves anything that is not an address as a network of its own', () => {
    expect(networkOf('unknown')).toBe('unknown');
    expect(networkOf('127.1')).toBe('127.1');
  });
});
