// Phones: no public page scrolls sideways, from the 320px of the smallest phones up; nor do the
// screens that show long values (an e-mail address, a homepage address, an attachment name).
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { seedReport } from './report-seed.ts';

const PAGES = ['/', '/faq', '/help-center', '/contact', '/privacy', '/terms', '/login', '/signup', '/no-such-page'];
const LONG_URL = `https://www.barton-springs-family-and-cosmetic-dentistry.example/locations/austin-downtown/?utm_source=${'x'.repeat(60)}`;

// Elements that reach past the right edge of the screen. What sits in a box that scrolls sideways on
// purpose (the competitor table) does not count; what a box clips (overflow: hidden) does.
function overflowing(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (el: Element) => {
      for (let p = el.parentElement; p; p = p.parentElement) if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true;
      return false;
    };
    const wide = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > width + 1 && !scrolls(el));
    return wide.slice(0, 3).map((el) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}`);
  });
}

for (const width of [320, 375]) {
  test(`no page is wider than a ${width}px screen`, async ({ page }) => {
    await page.setViewportSize({ width, height: 740 });
    for (const path of PAGES) {
      await page.goto(path);
      expect(await overflowing(page), `${path} at ${width}px`).toEqual([]);
    }
  });
}

test('long values wrap inside their cards on a 375px screen', async ({ page, appCtx, baseURL }) => {
  await page.setViewportSize({ width: 375, height: 740 });

  await page.goto('/contact');
  // The form hydrates on interaction; its own 'Message Received' screen once it has.
  await page.getByLabel('Name').focus();
  await expect(page.locator('form.contact-form')).toHaveAttribute('novalidate', '');
  await page.getByLabel('Name').fill('Jane Smith');
  await page.getByLabel('Email').fill(`jane.smith.${Date.now()}@barton-springs-dental.example`);
  await page.getByLabel('Subject').selectOption({ label: 'Billing Question' });
  await page.getByLabel('Message').fill('Can I move from monthly to annual billing?');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('heading', { name: 'Message Received' })).toBeVisible();
  expect(await overflowing(page), 'contact, Message Received').toEqual([]);

  const { token } = await seedReport(appCtx, baseURL!, {
    company: 'Barton Springs Family and Cosmetic Dentistry',
    edit: (data) => {
      data.notes.push(`Your website (${LONG_URL}) could not be read.`);
      for (const place of [data.business, ...data.competitors]) place.dataPoints.push({ key: 'site.final_url', label: 'Homepage address', value: LONG_URL, unit: 'text', score: null, status: 'measured' });
    },
  });
  await page.goto(`/report/${token}`);
  await page.locator('details.comp-points').first().locator('summary').click();
  expect(await overflowing(page), 'online report').toEqual([]);
  // The comparison table scrolls inside its box on a phone, and says so.
  await expect(page.getByText('Scroll the table sideways to see every score.')).toBeVisible();

  await page.goto('/dev/mailbox');
  await page.getByRole('link', { name: /Your LocalRank report \(example figures, not your real listings\): Barton Springs Family/ }).click();
  await expect(page.getByRole('link', { name: /barton-springs-family-and-cosmetic-dentistry-localrank-report-example-figures\.pdf/ })).toBeVisible();
  expect(await overflowing(page), 'dev mailbox message').toEqual([]);
});
