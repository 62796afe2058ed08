// Nothing of ours on any path an agency's client or widget lead can reach (issue 37): with the
// agency's verified report domain, a client's report and a widget lead's report are e-mailed;
// then every e-mail (headers, text, HTML, the PDF's text and metadata) and every page their links
// open on the agency's host (the online report, unsubscribe and "Delete my data" before and after
// confirming, a used link, bad links, a path that is not there), with every byte of every script,
// style, image and font those pages load, are searched for our product's name and domain, the
// operator's names and address, and our own host. The e-mails' route through the agency's own mail
// server is white-label-mail.test.ts's (loopback mail servers are refused here, as in production).
import { look } from './look.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Email } from 'postal-mime';
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import type { Page, Response } from '@playwright/test';
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import { reports } from '../../db/schema/reports.ts';
import { widgetKeys } from '../../db/schema/widget.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { expect, test } from './fixtures.ts';
import { mailsTo } from './outbox.ts';

// Every response the pages get is searched: a context of its own, so none is served from a warm cache unseen.
test.use({ freshContext: true });

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test("an agency's client and widget lead meet the agency's name only: every e-mail, page and file, searched", async ({ page, signIn, appCtx, baseURL }, info) => {
  test.setTimeout(150_000);
  const ourHost = new URL(baseURL!).host;
  const OURS = new RegExp(
    [PRODUCT_NAME, 'localrank', OPERATOR.name, OPERATOR.legalName, OPERATOR.postalAddress, 'Congress Avenue', OPERATOR.supportEmail.split('@')[1]!, ourHost].map(escape).join('|'),
    'i',
  );
  /** Where in `text` our trace is, with some context, or null. */
  const traceIn = (text: string) => {
    const m = OURS.exec(text);
    return m ? text.slice(Math.max(0, m.index - 60), m.index + m[0].length + 60) : null;
  };

  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Harbour Growth' });
  const stamp = Date.now().toString(36);
  const domain = `reports-${stamp}.harbour-trace.localhost`;
  const port = new URL(baseURL!).port;
  const origin = `http://${domain}:${port}`;

  // The agency's profile, its report domain proven by the TXT record at its DNS host.
  const created = await page.request.post('/api/branding-profiles', {
    data: { companyName: 'Harbour Growth', contactEmail: 'hello@harbour-growth.example', website: 'https://harbour-growth.example', footerText: 'Harbour Growth LLC · 9 Dock St, Portland, ME 04101', isDefault: true },
  });
  expect(created.status()).toBe(201);
  const profileId = ((await created.json()) as { id: string }).id;
  const claimed = await page.request.put(`/api/branding-profiles/${profileId}/domain`, { data: { domain } });
  expect(claimed.ok()).toBe(true);
  const txt = ((await claimed.json()) as { records: Array<{ type: string; name: string; value: string }> }).records.find((r) => r.type === 'TXT')!;
  writeFileSync(join(process.env.E2E_DATA_DIR!, `dns-txt-${stamp}.json`), JSON.stringify({ [txt.name]: [txt.value] }));
  const verified = await page.request.post(`/api/branding-profiles/${profileId}/domain/verify`);
  expect(((await verified.json()) as { verified: boolean }).verified).toBe(true);

  // A client (its report goes out at once), and a lead from the agency's widget on its own site.
  const clientEmail = uniqueEmail('lena');
  expect(
    (await page.request.post('/api/clients', { data: { clientName: `Lena Park ${stamp}`, clientEmail, company: `Park Dental ${stamp}`, website: 'https://park-dental.example', address: '12 Pine St', city: 'Austin', state: 'TX', zip: '78701' } })).status(),
  ).toBe(201);
  const [key] = await appCtx.db
    .insert(widgetKeys)
    .values({ consultantId: agency.viewer.consultant!.id, name: 'Site', publishableKey: `lr_pk_${'t'.repeat(20)}${stamp.slice(-4)}`, allowedHostnames: ['harbour-growth.example'], brandingProfileId: profileId, components: ['report-form'] })
    .returning();
  const leadEmail = uniqueEmail('omar');
  const lead = await page.request.post(`/api/widget/v1/${key!.publishableKey}/leads`, {
    headers: { origin: 'https://harbour-growth.example' },
    data: { fullName: `Omar Haddad ${stamp}`, email: leadEmail, company: `Haddad Bakery ${stamp}`, role: 'owner', website: 'https://haddad-bakery.example', address: '40 Elm St', city: 'Austin', state: 'TX', zip: '78702', consent: true },
  });
  expect(lead.status(), await lead.text()).toBeLessThan(300);

  const mails: Email[] = [];
  for (const to of [clientEmail, leadEmail]) {
    await expect.poll(async () => (await mailsTo(to)).length, { timeout: 60_000 }).toBeGreaterThan(0);
    mails.push(...(await mailsTo(to)));
  }

  // Every e-mail, whole: headers, both bodies, the PDF's text and metadata.
  const searched: string[] = [];
  /** The links of each recipient's e-mails. */
  const linksTo = new Map<string, string[]>();
  for (const mail of mails) {
    const where = `e-mail "${mail.subject}" to ${mail.to?.[0]?.address}`;
    const headers = mail.headers.map((h) => `${h.key}: ${h.value}`).join('\n');
    for (const [part, text] of [['headers', headers], ['text', mail.text ?? ''], ['html', mail.html ?? '']] as const) expect(traceIn(text), `${where}, ${part}`).toBeNull();
    for (const attachment of mail.attachments) {
      if (attachment.mimeType !== 'application/pdf') continue;
      const pdf = await getDocumentProxy(new Uint8Array(attachment.content as ArrayBuffer));
      const { text } = await extractText(pdf, { mergePages: true });
      const { info: meta } = await getMeta(pdf);
      expect(traceIn(`${text}\n${JSON.stringify(meta)}`), `${where}, ${attachment.filename}`).toBeNull();
    }
    searched.push(where);
    const to = mail.to![0]!.address!;
    linksTo.set(to, [...(linksTo.get(to) ?? []), ...[...(mail.html ?? '').matchAll(/href="(https?:[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))]);
  }
  const links = [...linksTo.values()].flat();
  // Every link goes to the agency's host (or its site and addresses); none to ours.
  expect(links.filter((l) => !l.startsWith(`${origin}/`) && !l.startsWith('https://harbour-growth.example'))).toEqual([]);
  /** The first link to `path` on the agency's host in `to`'s e-mails. */
  const pick = (path: string, to: string) => {
    const link = linksTo.get(to)?.find((l) => l.startsWith(`${origin}${path}`));
    expect(link, `a link to ${path} in the e-mail to ${to}`).toBeTruthy();
    return link!;
  };

  /** A page on the agency's host, with every response it loads: none may carry a trace. */
  const loaded = new Map<string, string>();
  const watch = (p: Page) =>
    p.on('response', async (res: Response) => {
      const body = await res.body().catch(() => null);
      if (body) loaded.set(`${res.status()} ${res.url()}`, body.toString('latin1'));
    });
  watch(page);
  const visit = async (url: string, name: string) => {
    const res = await page.goto(url);
    await page.waitForLoadState('networkidle');
    const html = await page.content();
    expect(traceIn(html), `${name}: the page`).toBeNull();
    expect(traceIn(await page.title()), `${name}: its title`).toBeNull();
    await look(page, { path: info.outputPath(`${name}.png`), fullPage: true });
    searched.push(`${name} (${new URL(url).pathname}, ${res?.status()})`);
    return res;
  };

  await visit(pick('/report/', clientEmail), 'client-report');
  await visit(pick('/report/', leadEmail), 'lead-report');
  // The online report's links (the PDF, example homepages of sample data): on the agency's host.
  for (const href of await page.locator('a[href]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))) {
    if (href.startsWith('mailto:') || href.startsWith('tel:') || href.includes('#')) continue;
    expect(href.startsWith(`${origin}/`) || href.startsWith('https://harbour-growth.example'), href).toBe(true);
  }
  const pdfHref = await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href');
  if (pdfHref) {
    // Fetched by the page (the agency's *.localhost host resolves in the browser only).
    const bytes = await page.evaluate(async (href) => [...new Uint8Array(await (await fetch(href)).arrayBuffer())], pdfHref);
    const doc = await getDocumentProxy(new Uint8Array(bytes));
    expect(traceIn(`${(await extractText(doc, { mergePages: true })).text}\n${JSON.stringify((await getMeta(doc)).info)}`), 'the online PDF').toBeNull();
  }

  const unsubscribe = pick('/unsubscribe?', clientEmail);
  await visit(unsubscribe, 'unsubscribe-confirm');
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  expect(traceIn(await page.content()), 'unsubscribe: done').toBeNull();
  await look(page, { path: info.outputPath('unsubscribe-done.png'), fullPage: true });

  const forget = pick('/delete-data?', leadEmail);
  await visit(forget, 'delete-data-confirm');
  await expect(page).toHaveTitle('Delete my data · Harbour Growth');
  await page.getByRole('button', { name: 'Delete my data' }).click();
  await expect(page.getByRole('heading', { name: 'Your data is deleted' })).toBeVisible();
  expect(traceIn(await page.content()), 'delete my data: done').toBeNull();
  await look(page, { path: info.outputPath('delete-data-done.png'), fullPage: true });
  expect(await appCtx.db.select({ id: reports.id }).from(reports).where(eq(reports.recipientEmail, leadEmail))).toEqual([]);
  await visit(forget, 'delete-data-used');
  await expect(page.getByRole('heading', { name: 'This data is already deleted' })).toBeVisible();

  // Bad and missing links on the agency's host: its name, or nobody's.
  await visit(`${origin}/delete-data?token=not-a-token`, 'delete-data-bad-link');
  await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
  await expect(page.getByTestId('brand-masthead')).toContainText('Harbour Growth');
  await expect(page.locator('#main').getByRole('link', { name: 'hello@harbour-growth.example' })).toBeVisible();
  for (const [path, name] of [['/unsubscribe?token=not-a-token', 'unsubscribe-bad-link'], ['/report/not-a-token', 'report-bad-link'], ['/no-such-page', 'not-found'], ['/_astro/no-such-file.js', 'asset-not-found'], ['/favicon.svg', 'our-icon']] as const) {
    const res = await visit(`${origin}${path}`, name);
    expect(res?.status(), path).toBe(404);
  }

  // Every byte those pages loaded: documents, scripts, styles, images, fonts.
  expect([...loaded.keys()].some((k) => k.includes('/_astro/')), 'the pages loaded their assets').toBe(true);
  for (const [what, body] of loaded) expect(traceIn(body), what).toBeNull();
  info.attachments.push({ name: 'searched', contentType: 'text/plain', body: Buffer.from([...searched, ...loaded.keys()].join('\n')) });
});
