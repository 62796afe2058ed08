// Which address rate limits and consent records count: behind a trusted proxy, the hop the proxy
// added (the last), never one the client wrote into X-Forwarded-For itself.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientIp } from '../../api/lib/client-info.ts';

async function ipOf(trustProxy: boolean, forwardedFor?: string) {
  const app = new Hono().get('/', (c) => c.text(clientIp(c, trustProxy)));
  const res = await app.request('/', { headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } });
  return res.text();
}

describe('clientIp', () => {
  it('behind a trusted proxy takes the hop the proxy appended, not the ones the client sent', async () => {
    expect(await ipOf(true, '198.51.100.7')).toBe('198.51.100.7');
    expect(await ipOf(true, '203.0.113.9, 198.51.100.7')).toBe('198.51.100.7');
    expect(await ipOf(true, '10.0.0.1,203.0.113.9 , 198.51.100.7 ')).toBe('198.51.100.7');
  });

  it('ignores X-Forwarded-For unless the proxy is trusted', async () => {
    expect(await ipOf(false, '198.51.100.7')).toBe('unknown');
    expect(await ipOf(true)).toBe('unknown');
  });
});
