// Adding a client through /clients' form, as the agency browser tests do.
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

export interface NewClient {
  name: string;
  email: string;
  company: string;
  zip: string;
}

/** Fills and sends "Add Client" on /clients; resolves when the client's row is listed. */
export async function addClient(page: Page, c: NewClient) {
  await page.getByRole('button', { name: 'Add Client' }).click();
  const form = page.locator('form.cf');
  await form.getByLabel('Client name').fill(c.name);
  await form.getByLabel('Client e-mail').fill(c.email);
  await form.getByLabel('Company name').fill(c.company);
  await form.getByLabel('Business website').fill(`https://${c.company.toLowerCase().replace(/\W+/g, '')}.example.com`);
  await form.getByLabel('Business address').fill('200 Congress Ave');
  await form.getByLabel('City').fill('Austin');
  await form.getByLabel('State').selectOption('TX');
  await form.getByLabel('ZIP code').fill(c.zip);
  await form.getByRole('button', { name: 'Add Client and Send First Report' }).click();
  await expect(page.getByRole('link', { name: c.name })).toBeVisible();
}
