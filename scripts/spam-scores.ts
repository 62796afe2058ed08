// `npm run spam-scores`: every e-mail the product sends, built by its own code (the report in each
// of its kinds, white-label included, the alerts, the lead e-mails, the account e-mails, the
// failure and billing notices, the contact notification), written as the .eml the mailer would
// send, and scored by SpamAssassin's local tests (`spamassassin -L -t`, which must be installed).
// Prints each e-mail's score and the rules that fired; exits 1 when one scores above the limit.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import nodemailer from 'nodemailer';
import { createContext } from '../api/create-context.ts';
import { ACCOUNT_EMAIL_KINDS, accountEmail } from '../api/email/account-email.ts';
import { alertsEmail } from '../api/email/alerts-email.ts';
import { contactNotifyEmail } from '../api/email/contact-notify-job.ts';
import { leadsEmail } from '../api/email/lead-emails.ts';
import type { MailMessage } from '../api/email/mailer.ts';
import { agencyMailUnavailableEmail } from '../api/email/agency-mail-unavailable.ts';
import { reportFailedEmail } from '../api/email/report-failed.ts';
import { visibilityAlertEmail } from '../api/email/visibility-alert-email.ts';
import { webhookDisabledEmail } from '../api/email/webhook-disabled.ts';
import { mailServerTestMessage } from '../api/services/agency-mail/mail-server.ts';
import { reportEmail } from '../api/email/report-email.ts';
import { loadEnv } from '../api/env.ts';
import type { Branding } from '../api/report/model/branding.ts';
import { exampleReportData } from '../api/report/example-data.ts';
import { reportLinks } from '../api/report/render/links.ts';
import { inlineRenderer } from '../api/report/render/renderer.ts';
import { paymentFailedEmail } from '../api/services/billing/jobs.ts';
import { unsubscribeToken } from '../api/services/reports.ts';

const { values } = parseArgs({ options: { limit: { type: 'string', default: '0.5' } } });
const LIMIT = Number(values.limit);

const dataDir = mkdtempSync(join(tmpdir(), 'localrank-spam-'));
// A public host that is not loopback (SpamAssassin's URI rules look at it); nothing is fetched from it.
const env = loadEnv({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'silent', NODE_ENV: 'production', PLACES_PROVIDER: 'sample', ALLOW_SAMPLE_DATA: 'true', PUBLIC_BASE_URL: 'https://localrank.app', SITE_FETCH_TIMEOUT_MS: '500' });
const ctx = await createContext(env, { migrate: true });

try {
  const data = await exampleReportData(ctx);
  const rendered = await inlineRenderer().render(data, reportLinks(ctx), null);
  const branding: Branding = {
    id: 'example',
    companyName: 'Northstar Marketing',
    logoPng: null,
    logoUrl: null,
    primaryColor: '#0F766E',
    secondaryColor: '#1F2937',
    accentColor: '#059669',
    contactEmail: 'hello@northstar-marketing.com',
    contactPhone: '(512) 555-0188',
    website: 'https://northstar-marketing.com',
    footerText: 'Northstar Marketing LLC · 500 Main St, Austin, TX 78701',
    poweredBy: false,
  };
  const branded = await inlineRenderer().render(data, reportLinks(ctx), branding);
  const now = new Date();
  const base = { to: 'dana.whitfield@gmail.com', fullName: 'Dana Whitfield', data, token: 'tok_0123456789abcdefghij', reportUrl: `${env.PUBLIC_BASE_URL}/report/tok_0123456789abcdefghij?sig=abc`, expiresAt: new Date(now.getTime() + 30 * 86_400_000) };
  const report = (kind: 'free' | 'monthly' | 'client', white = false) =>
    reportEmail(ctx, {
      ...base,
      messageId: `<report-${kind}${white ? '-wl' : ''}@localrank.app>`,
      scoreCard: (white ? branded : rendered).png,
      pdf: (white ? branded : rendered).pdf,
      kind,
      branding: white ? branding : null,
      consultantName: kind === 'client' ? 'Northstar Marketing' : null,
      replyTo: kind === 'client' ? 'owner@northstar-marketing.com' : null,
      whiteLabelFrom: white ? 'reports@northstar-marketing.com' : null,
      ...(kind === 'free' ? { deleteDataUrl: `${env.PUBLIC_BASE_URL}/delete-data?link=abc.def` } : {}),
    });
  const business = { id: 'b1', company: 'Austin Family Dental', city: 'Austin', state: 'TX', placeId: 'google:abc' } as Parameters<typeof alertsEmail>[1];
  const alert = { id: 'a1', platform: 'google', reviewRating: 2, reviewAuthor: 'Pat Q.', reviewText: 'Waited forty minutes past my appointment time.', reviewUrl: 'https://maps.google.com/?cid=1', reviewDate: new Date(now.getTime() - 86_400_000) } as Parameters<typeof alertsEmail>[3][number];
  const lead = { id: 'l1', fullName: 'Sam Ortiz', company: 'Ortiz Plumbing', email: 'sam@ortizplumbing.com', sourceHostname: 'northstar-marketing.com', status: 'requested', queuedReason: null } as Parameters<typeof leadsEmail>[2][number];
  const user = { id: 'u1', email: 'owner@austinfamilydental.com', subscriptionTier: 'pro' } as Parameters<typeof paymentFailedEmail>[1];

  const failed = { id: 'r1', email: 'dana.whitfield@gmail.com', fullName: 'Dana Whitfield', company: 'Austin Family Dental', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' };

  const messages: Array<[string, MailMessage]> = [
    ['report (free)', report('free')],
    ['report (monthly)', report('monthly')],
    ['report (client)', report('client')],
    ['report (client, white-label)', report('client', true)],
    // The agency's own copy of a client's report: a message of its own, to the agency (issue 37).
    ['report (agency copy)', { ...reportEmail(ctx, { ...base, to: 'owner@northstar-marketing.com', fullName: '', messageId: '<report-client-copy-wl@northstar-marketing.com>', scoreCard: branded.png, pdf: branded.pdf, kind: 'client', branding, consultantName: 'Northstar Marketing', replyTo: 'owner@northstar-marketing.com', whiteLabelFrom: 'reports@northstar-marketing.com', copyOf: { name: 'Dana Whitfield', email: 'dana.whitfield@gmail.com' } }) }],
    ['Early Warning alerts', alertsEmail(ctx, business, { userId: 'u1', email: 'owner@austinfamilydental.com' }, [alert], await unsubscribeToken(ctx, 'owner@austinfamilydental.com'))],
    ['Early Warning visibility drop', visibilityAlertEmail(ctx, { ...business, placeId: 'google:abc' } as Parameters<typeof visibilityAlertEmail>[1], { userId: 'u1', email: 'owner@austinfamilydental.com' }, { businessId: 'b1', runId: 'run1', solv: 12.5, previousSolv: 31.25, at: now.toISOString(), previousAt: new Date(now.getTime() - 7 * 86_400_000).toISOString() }, await unsubscribeToken(ctx, 'owner@austinfamilydental.com'))],
    ['widget lead', leadsEmail(ctx, { userId: 'u1', email: 'owner@northstar-marketing.com' }, [lead], 'lead-l1')],
    ['widget lead digest', leadsEmail(ctx, { userId: 'u1', email: 'owner@northstar-marketing.com' }, [lead, { ...lead, id: 'l2', fullName: 'Ana Ruiz', email: 'ana@ruizbakery.com', company: 'Ruiz Bakery', status: 'queued', queuedReason: 'plan' }], 'digest-2026-11-25')],
    ...ACCOUNT_EMAIL_KINDS.map((kind): [string, MailMessage] => [`account: ${kind}`, accountEmail(ctx, { kind, to: 'owner@austinfamilydental.com', url: `${env.PUBLIC_BASE_URL}/reset-password?token=abcdef0123456789` })]),
    ['report failed', reportFailedEmail(ctx, failed)],
    ['report failed (white-label)', reportFailedEmail(ctx, failed, { branding, consultant: { companyName: 'Northstar Marketing', email: 'owner@northstar-marketing.com' }, whiteLabelFrom: 'reports@northstar-marketing.com' })],
    ['payment failed', paymentFailedEmail(ctx, user, 'in_123')],
    ['agency mail server away', agencyMailUnavailableEmail(ctx, { consultantId: 'c1', to: 'owner@northstar-marketing.com', host: 'smtp.northstar-marketing.com', port: 587, since: new Date(now.getTime() - 3_600_000), lastError: 'We connected to smtp.northstar-marketing.com:587, but it did not answer within 30 seconds.' })],
    ['agency mail server test', mailServerTestMessage({ host: 'smtp.northstar-marketing.com', port: 587, fromAddress: 'reports@northstar-marketing.com' }, 'owner@northstar-marketing.com')],
    ['webhook endpoint disabled', webhookDisabledEmail(ctx, { endpointId: 'we1', url: 'https://hooks.northstar-marketing.com/localrank', disabledAt: now, to: 'owner@northstar-marketing.com' })],
    ['contact notification', contactNotifyEmail(ctx, { id: 'c1', name: 'Dana Whitfield', email: 'dana.whitfield@gmail.com', subject: 'billing', message: 'Hello, how do I change the card on my plan?', createdAt: now } as Parameters<typeof contactNotifyEmail>[1])],
  ];

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  let worst = 0;
  for (const [name, message] of messages) {
    const raw = (await transport.sendMail(message)).message as Buffer;
    const out = execFileSync('spamassassin', ['-L', '-t'], { input: raw, maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
    const status = /^X-Spam-Status: .*?score=(-?[\d.]+)[\s\S]*?tests=([^\r\n]*(?:\r?\n\t[^\r\n]*)*)/m.exec(out);
    const score = status ? Number(status[1]) : NaN;
    const rules = status ? status[2]!.replace(/\s+/g, '').replace(/autolearn.*$/, '') : '?';
    worst = Math.max(worst, Number.isNaN(score) ? Infinity : score);
    console.log(`${score.toFixed(1).padStart(5)}  ${name.padEnd(30)} ${rules}`);
  }
  console.log(`\nworst ${worst.toFixed(1)} (limit ${LIMIT})`);
  process.exitCode = worst <= LIMIT ? 0 : 1;
} finally {
  ctx.db.$client.close();
  rmSync(dataDir, { recursive: true, force: true });
}
