// Stripe.js cannot load in the browser tests: its script address is routed to a Stripe.js double
// (tests/e2e/stripe-js/) and api.stripe.com to the local Stripe API double the server uses
// (tests/e2e/serve.ts). Returns the Stripe.js paths the page asked for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

const doubleFile = (name: string) => readFileSync(new URL(`./stripe-js/${name}`, import.meta.url), 'utf8');

export async function routeStripe(page: Page) {
  const api = JSON.parse(readFileSync(join(process.env.E2E_DATA_DIR!, 'stripe-double.json'), 'utf8')) as { url: string };
  const loaded: string[] = [];
  await page.route('https://js.stripe.com/**', (route) => {
    const url = new URL(route.request().url());
    loaded.push(url.pathname);
    if (url.pathname.endsWith('/stripe.js')) return route.fulfill({ contentType: 'text/javascript', body: doubleFile('stripe.js') });
    if (url.pathname.endsWith('/elements-inner-payment-double.html')) return route.fulfill({ contentType: 'text/html', body: doubleFile('payment-frame.html') });
    return route.abort();
  });
  await page.route('https://api.stripe.com/**', async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `${api.url}${url.pathname}${url.search}` });
    await route.fulfill({ response });
  });
  return loaded;
}

