// The browser tests' server: `npm start`'s own script, with billing pointed at a local double of
// the Stripe API (started here, on a free port) that delivers signed events to the server's
// webhook. Where the double listens is written to E2E_DATA_DIR/stripe-double.json for the tests.
// Report domains are verified against a DNS server on loopback whose TXT records the tests write
// to E2E_DATA_DIR/dns-txt*.json (one file per writer, so tests running at once lose none); it
// answers webhook names' addresses from the test address book.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEnv } from '../../api/env.ts';
import { setupBilling } from '../../api/services/billing/catalogue.ts';
import { startDnsServer, TEST_ADDRESS_BOOK } from '../helpers/dns.ts';
import { freePort } from '../helpers/sqld.ts';
import { startStripeDouble } from '../helpers/stripe-double/server.ts';
import { startGbpStandin } from '../helpers/gbp-standin.ts';

const base = process.env.PUBLIC_BASE_URL!;
const stripe = await startStripeDouble({
  deliver: async (payload, signature) => {
    const res = await fetch(`${base}/api/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    if (!res.ok) console.error(`webhook answered ${res.status}: ${await res.text()}`);
  },
});
Object.assign(process.env, stripe.env());
await setupBilling({ ctx: { env: loadEnv(process.env) } });
writeFileSync(join(process.env.E2E_DATA_DIR!, 'stripe-double.json'), JSON.stringify({ url: stripe.url, publishableKey: stripe.publishableKey }));
const dataDir = process.env.E2E_DATA_DIR!;
/** A file caught half-written answers nothing this time; the test asks again. */
const readTxt = (file: string): Record<string, string[]> => {
  try {
    return JSON.parse(readFileSync(join(dataDir, file), 'utf8')) as Record<string, string[]>;
  } catch {
    return {};
  }
};
const txtRecords = () => Object.assign({}, ...readdirSync(dataDir).filter((f) => /^dns-txt.*\.json$/.test(f)).map(readTxt)) as Record<string, string[]>;
const dns = await startDnsServer(txtRecords, TEST_ADDRESS_BOOK);
process.env.DNS_SERVERS = dns.server;
// The fixtures' own context (tests/e2e/fixtures.ts) resolves webhook names through it too.
writeFileSync(join(dataDir, 'dns-server.txt'), dns.server);
// Webhook deliveries may reach one loopback port (tests only): the receiver webhooks.spec.ts starts there.
const webhookPort = await freePort();
process.env.WEBHOOK_LOOPBACK_PORTS = String(webhookPort);
writeFileSync(join(process.env.E2E_DATA_DIR!, 'webhook-receiver.json'), JSON.stringify({ port: webhookPort }));
// Google's side of a connected Business Profile (issue 48), in this process; the tests drive it
// through its control routes (gbp-standin.json names where), and the server polls it every 30 s.
const google = await startGbpStandin({ control: true });
Object.assign(process.env, google.env, { GBP_POLL_SECONDS: '30' });
writeFileSync(join(dataDir, 'gbp-standin.json'), JSON.stringify({ base: google.base }));
await import('../../scripts/start.ts');
