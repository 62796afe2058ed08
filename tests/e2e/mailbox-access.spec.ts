// The development mailbox shows every e-mail with its report links: with DEV_MAILBOX=true (set for
// this server) it answers a browser on this machine, and nobody a proxy forwarded.
import { expect, test } from './fixtures.ts';

test('the mailbox answers loopback, and 404 to a request a proxy forwarded', async ({ request }) => {
  expect((await request.get('/dev/mailbox')).status()).toBe(200);
  for (const header of ['X-Forwarded-For', 'Forwarded', 'X-Real-IP']) {
    const res = await request.get('/dev/mailbox', { headers: { [header]: '203.0.113.9' } });
    expect(res.status(), header).toBe(404);
    expect(await res.text()).not.toContain('Mailbox');
    expect((await request.get('/dev/mailbox/x.eml/raw', { headers: { [header]: '203.0.113.9' } })).status(), `${header} raw`).toBe(404);
  }
});
