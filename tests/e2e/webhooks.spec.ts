// Webhook endpoints on /account (issue 39): an Agency user adds an endpoint pointing at a receiver
// this test runs (on the loopback port the test server lets deliveries reach, tests/e2e/serve.ts),
// sees the signing secret once, presses "Send test", sees the delivery succeed while the receiver
// gets a request signed with that secret, and removes the endpoint. Refusals name their field.
import { look } from './look.ts';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { expect, test } from './fixtures.ts';

const { port } = JSON.parse(readFileSync(join(process.env.E2E_DATA_DIR!, 'webhook-receiver.json'), 'utf8')) as { port: number };

test('an agency adds a webhook endpoint, sends it a test event the receiver gets signed, and removes it', async ({ page, signIn }) => {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(port, '127.0.0.1', done));
  try {
    await signIn({ tier: 'agency', role: 'consultant' });
    await page.goto('/account');
    const hooks = page.locator('#webhooks');
    await expect(hooks.getByText('No webhook endpoints yet.')).toBeVisible();

    // Each refusal under its field: no address and no event, then an address delivery would refuse.
    await hooks.getByRole('button', { name: 'Add Endpoint' }).click();
    await expect(hooks.locator('#auth-url-error')).toHaveText('Enter an http:// or https:// address');
    await expect(hooks.locator('#hooks-events-error')).toHaveText('Choose at least one event');
    await hooks.getByLabel('Endpoint URL').fill('https://10.0.0.8/hooks');
    await hooks.getByLabel('report.completed').check();
    await hooks.getByRole('button', { name: 'Add Endpoint' }).click();
    await expect(hooks.locator('#auth-url-error')).toHaveText('Deliveries never go to private, loopback or reserved addresses (10.0.0.8 is private)');
    await expect(hooks.getByLabel('Endpoint URL')).toHaveAttribute('aria-invalid', 'true');
    await page.setViewportSize({ width: 390, height: 900 });
    await look(hooks, { path: 'test-results/webhooks-errors-390.png' });
    await page.setViewportSize({ width: 1280, height: 900 });

    const url = `http://127.0.0.1:${port}/hooks`;
    await hooks.getByLabel('Endpoint URL').fill(url);
    await hooks.getByLabel('Description (optional)').fill('Staging');
    await hooks.getByRole('button', { name: 'Add Endpoint' }).click();
    const shown = hooks.getByTestId('new-webhook-secret');
    await expect(shown).toContainText('shown only once');
    const secret = (await shown.locator('#webhook-secret-value').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await expect(shown.getByRole('button', { name: 'Copy the signing secret' })).toBeVisible();
    const endpoint = hooks.getByTestId('webhook-endpoint');
    await expect(endpoint).toContainText(url);
    await expect(endpoint).toContainText('Staging · report.completed');
    await look(hooks, { path: 'test-results/webhooks-added-1280.png' });

    await endpoint.getByRole('button', { name: 'Send test' }).click();
    await expect(endpoint.getByTestId('webhook-test-result')).toHaveText(/^Test delivered: 204 in \d+ ms$/, { timeout: 30_000 });
    await expect(endpoint.getByRole('row').nth(1)).toContainText('webhook.test');
    await expect(endpoint.getByRole('row').nth(1)).toContainText('Delivered');
    expect(received).toHaveLength(1);
    const { headers, body } = received[0]!;
    const event = new Webhook(secret).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    expect(event).toMatchObject({ type: 'webhook.test' });
    await look(hooks, { path: 'test-results/webhooks-tested-1280.png' });
    await page.setViewportSize({ width: 390, height: 900 });
    await look(hooks, { path: 'test-results/webhooks-tested-390.png' });
    // Nothing on the phone-width page is wider than the screen (a long address wraps; the log scrolls in its box).
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

    page.once('dialog', (d) => void d.accept());
    await endpoint.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Endpoint removed')).toBeVisible();
    await expect(hooks.getByTestId('webhook-endpoint')).toHaveCount(0);
    await expect(hooks.getByText('No webhook endpoints yet.')).toBeVisible();
  } finally {
    await new Promise<void>((done) => receiver.close(() => done()));
  }
});
