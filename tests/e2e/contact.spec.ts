import { eq } from 'drizzle-orm';
import { contactMessages, jobs, rateLimits } from '../../db/schema/operations.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { look } from './look.ts';

/** The form hydrates on interaction (client:interaction): focus a field, then wait for the form's
 *  own checks to take over from the browser's (novalidate). */
async function hydrate(page: import('@playwright/test').Page) {
  await page.getByLabel('Name').focus();
  await expect(page.locator('form.contact-form')).toHaveAttribute('novalidate', '');
}


/** Holds the page's scripts (React is still on its way) until `release`: an event, not a delay. */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  await page.route('**/_astro/*.js', async (route) => {
    await released;
    await route.continue().catch(() => {});
  });
  return { release };
}

test('contact: the page shows the reply time and hours', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByRole('heading', { level: 1, name: 'Get in Touch' })).toBeVisible();
  await expect(page.getByText('Mon-Fri 9am-6pm EST').first()).toBeVisible();
  await expect(page.getByText('We reply within 24-48 hours.')).toBeVisible();
});

test('contact: every validation message, then the fields clear as they are fixed', async ({ page }) => {
  await page.goto('/contact');
  const send = page.getByRole('button', { name: 'Send Message' });
  await hydrate(page);
  await send.click();
  await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();
  await expect(page.getByText('Please enter a valid email')).toBeVisible();
  await expect(page.getByText('Please select a subject')).toBeVisible();
  await expect(page.getByText('Message must be at least 10 characters')).toBeVisible();
  // Focus goes to the first field in error, which is announced with its message.
  await expect(page.getByLabel('Name')).toBeFocused();
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Name')).toHaveAccessibleDescription('Name must be at least 2 characters');

  await page.getByLabel('Name').fill('J');
  await page.getByLabel('Email').fill('jane@');
  await page.getByLabel('Message').fill('Too short');
  await send.click();
  await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();
  await expect(page.getByText('Please enter a valid email')).toBeVisible();
  await expect(page.getByText('Message must be at least 10 characters')).toBeVisible();

  await page.getByLabel('Name').fill('Jane Smith');
  await expect(page.getByText('Name must be at least 2 characters')).toHaveCount(0);
  await page.getByLabel('Subject').selectOption('support');
  await expect(page.getByText('Please select a subject')).toHaveCount(0);
});

test('contact: a valid message is stored and queued, shows Message Received and the Message Sent! toast', async ({ page, appCtx }) => {
  const email = uniqueEmail('contact');
  await page.goto('/contact');
  await hydrate(page);
  await page.getByLabel('Name').fill('Jane Smith');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Subject').selectOption({ label: 'Billing Question' });
  await page.getByLabel('Message').fill('Can I move from monthly to annual billing?');
  await page.getByRole('button', { name: 'Send Message' }).click();

  await expect(page.getByRole('heading', { name: 'Message Received' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Message Received' })).toBeFocused();
  await expect(page.getByText(`We'll reply to ${email} within 24-48 hours`)).toBeVisible();
  const toast = page.getByRole('status').filter({ hasText: 'Message Sent!' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("We'll get back to you within 24-48 hours.");

  const [row] = await appCtx.db.select().from(contactMessages).where(eq(contactMessages.email, email));
  expect(row).toMatchObject({ name: 'Jane Smith', subject: 'billing', message: 'Can I move from monthly to annual billing?' });
  const [job] = await appCtx.db.select().from(jobs).where(eq(jobs.key, `contact.notify:${row!.id}`));
  expect(job?.type).toBe('contact.notify');

  await page.getByRole('button', { name: 'Send Another Message' }).click();
  await expect(page.getByLabel('Name')).toHaveValue('');
});

test('contact: when the server refuses, the form stays with its message and a destructive toast', async ({ page, appCtx }) => {
  const email = uniqueEmail('limited');
  // This address has used up its hourly allowance: the server answers 429.
  await appCtx.db.insert(rateLimits).values({ key: `contact:email:${email}`, count: 1000, resetAt: new Date(Date.now() + 3_600_000) });
  await page.goto('/contact');
  await hydrate(page);
  await page.getByLabel('Name').fill('Jane Smith');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Subject').selectOption('general');
  await page.getByLabel('Message').fill('Do you cover businesses in Alaska?');
  await page.getByRole('button', { name: 'Send Message' }).click();
  const refusal = 'Too many messages from this email address. Please try again in an hour.';
  await expect(page.getByRole('alert').filter({ hasText: refusal })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Message Not Sent' })).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveValue('Do you cover businesses in Alaska?');
  await expect(page.getByRole('heading', { name: 'Message Received' })).toHaveCount(0);
});

test('contact: typed and sent before its script has loaded, the plain form post is accepted', async ({ page, appCtx }, info) => {
  const email = uniqueEmail('early');
  // The page's scripts are held until the visitor has sent: React is still on its way. The page
  // is taken as it arrives ('commit'): its module scripts hold back DOMContentLoaded.
  const scripts = await holdScripts(page);
  await page.goto('/contact', { waitUntil: 'commit' });
  await page.getByLabel('Name').fill('Early Bird');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Subject').selectOption({ label: 'Billing Question' });
  await page.getByLabel('Message').fill('Sent before the page had finished loading.');
  await expect(page.locator('form.contact-form')).not.toHaveAttribute('novalidate');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page).toHaveURL(/\/contact\/sent$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Message Received' })).toBeVisible();
  scripts.release();
  await look(page, { path: info.outputPath('contact-sent.png') });
  const [row] = await appCtx.db.select().from(contactMessages).where(eq(contactMessages.email, email));
  expect(row).toMatchObject({ name: 'Early Bird', subject: 'billing', message: 'Sent before the page had finished loading.' });
});

test('contact: a plain form post with bad fields is refused with per-field messages, and one from another site outright', async ({ request }) => {
  const res = await request.post('/api/contact', { form: { name: 'J', email: 'jane@', subject: 'nonsense', message: 'short' } });
  expect(res.status()).toBe(400);
  const html = await res.text();
  for (const text of ['Name: Name must be at least 2 characters', 'Email: Please enter a valid email', 'Subject: Please select a subject', 'Message: Message must be at least 10 characters']) expect(html).toContain(text);
  // Another site's form, posted by its visitor's browser, is not taken.
  const foreign = await request.post('/api/contact', { form: { name: 'Jane Smith', email: 'jane@example.com', subject: 'general', message: 'Sent from somewhere else.' }, headers: { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' } });
  expect(foreign.status()).toBe(403);
});

test('contact: what was typed before the form hydrated is kept and sent once it has', async ({ page, appCtx }) => {
  const email = uniqueEmail('typed');
  const scripts = await holdScripts(page);
  await page.goto('/contact', { waitUntil: 'commit' });
  await page.getByLabel('Name').fill('Typed Early');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Subject').selectOption({ label: 'Billing Question' });
  await page.getByLabel('Message').fill('Typed while the page was still loading.');
  await expect(page.locator('form.contact-form')).not.toHaveAttribute('novalidate');
  scripts.release();
  await expect(page.locator('form.contact-form')).toHaveAttribute('novalidate', '', { timeout: 15_000 });
  await expect(page.getByLabel('Subject')).toHaveValue('billing');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('heading', { name: 'Message Received' })).toBeFocused();
  const [row] = await appCtx.db.select().from(contactMessages).where(eq(contactMessages.email, email));
  expect(row).toMatchObject({ name: 'Typed Early', subject: 'billing', message: 'Typed while the page was still loading.' });
});
