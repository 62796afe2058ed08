// The record that points an agency's report domain at this server (decision 0221): a CNAME only
// names a host name, so an IP base address gets an A or AAAA record, and a name no public resolver
// answers gets no record and a reason.
import { describe, expect, it } from 'vitest';
import { pointingRecord } from '../../api/services/report-domains/records.ts';

const domain = 'reports.agency.example';

describe('the record pointing a report domain at the server', () => {
  it('is a CNAME to the host name of a base address on a public name', () => {
    expect(pointingRecord('https://app.localrank.example', domain)).toEqual({ record: { type: 'CNAME', name: domain, value: 'app.localrank.example' }, problem: null });
    expect(pointingRecord('https://app.localrank.example:8443/base/', domain).record).toEqual({ type: 'CNAME', name: domain, value: 'app.localrank.example' });
  });

  it('is an A record to an IPv4 base address, never a CNAME to an IP', () => {
    expect(pointingRecord('http://127.0.0.1:45601', domain)).toEqual({ record: { type: 'A', name: domain, value: '127.0.0.1' }, problem: null });
    expect(pointingRecord('https://203.0.113.7', domain).record).toEqual({ type: 'A', name: domain, value: '203.0.113.7' });
  });

  it('is an AAAA record to an IPv6 base address, without the brackets of the URL', () => {
    expect(pointingRecord('http://[2001:db8::7]:4321', domain).record).toEqual({ type: 'AAAA', name: domain, value: '2001:db8::7' });
    expect(pointingRecord('http://[::1]/', domain).record).toEqual({ type: 'AAAA', name: domain, value: '::1' });
  });

  it('is none, with the reason, for localhost and names without a dot', () => {
    for (const base of ['http://localhost:4321', 'http://app.localhost', 'http://intranet:8080']) {
      const { record, problem } = pointingRecord(base, domain);
      expect(record, base).toBeNull();
      expect(problem, base).toMatch(/is not a public host name/);
    }
  });
});
