// The `account.email` job: the e-mails better-auth asks us to send (password reset, address
// confirmation after sign-up, confirmation of a new address), and the account's notices (an export
// ready, the account closed, a report domain claim released). better-auth's callbacks only
// enqueue, so a request answers in the same time whether or not an e-mail goes out (no account
// enumeration by timing) and a mail server outage delays the e-mail instead of failing the call.
import { createHash } from 'node:crypto';
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import type { Db } from '../../db/client.ts';
import type { AppContext } from '../context.ts';
import { enqueue } from '../jobs/queue.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { mailerFor, messageIdFor, type MailMessage } from './mailer.ts';
import { escapeHtml } from '../../common/html.ts';

export const ACCOUNT_EMAIL = 'account.email';

export const ACCOUNT_EMAIL_KINDS = ['reset-password', 'verify-email', 'change-email', 'export-ready', 'account-closed', 'report-domain-taken', 'report-domain-expired', 'google-disconnected'] as const;
export type AccountEmailKind = (typeof ACCOUNT_EMAIL_KINDS)[number];

export interface AccountEmailPayload {
  kind: AccountEmailKind;
  to: string;
  url: string;
  /** The report domain a `report-domain-*` notice is about (a normalised host name). */
  domain?: string;
  /** Tells one notice from another of the same kind, address and link (its Message-ID). */
  ref?: string;
}

type Copy = { subject: string; heading: string; body: string; button: string; ignore: string };
const domainOf = (p: AccountEmailPayload) => p.domain ?? 'your report domain';

const COPY: Record<AccountEmailKind, Copy | ((payload: AccountEmailPayload) => Copy)> = {
  'reset-password': {
    subject: `Reset your ${PRODUCT_NAME} password`,
    heading: 'Reset your password',
    body: 'Someone (we hope you) asked to reset the password of the account with this e-mail address. The link works once, for 1 hour. Setting a new password signs the account out everywhere.',
    button: 'Set a new password',
    ignore: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  },
  'verify-email': {
    subject: `Confirm your e-mail address for ${PRODUCT_NAME}`,
    heading: 'Confirm your e-mail address',
    body: `Welcome to ${PRODUCT_NAME}. Confirm that this address is yours so we can send your monthly reports and Early Warning alerts to it. The link works for 24 hours.`,
    button: 'Confirm my address',
    ignore: `If you did not create a ${PRODUCT_NAME} account, ignore this e-mail.`,
  },
  'change-email': {
    subject: `Confirm your new ${PRODUCT_NAME} e-mail address`,
    heading: 'Confirm your new e-mail address',
    body: `You asked to sign in to ${PRODUCT_NAME} with this address from now on. The change happens when you open this link (it works for 24 hours); until then you keep signing in with your current address.`,
    button: 'Confirm the new address',
    ignore: 'If you did not ask for this, ignore this e-mail: nothing changes.',
  },
  'export-ready': {
    subject: `Your ${PRODUCT_NAME} data export is ready`,
    heading: 'Your data export is ready',
    body: 'The ZIP holds your profile, businesses with every snapshot of their metrics, reports with their PDFs and everything else your account holds, with a README that describes each file. The link works for 7 days.',
    button: 'Download my data',
    ignore: 'If you did not ask for this export, change your password: someone may be signed in to your account.',
  },
  'account-closed': {
    subject: `Your ${PRODUCT_NAME} account is closed`,
    heading: 'Your account is closed',
    body: 'You deleted your account: you are signed out everywhere, scheduled reports and alerts have stopped, and any paid subscription is cancelled. We erase the account and its data for good 30 days after closing it. Until then this link restores it, or e-mails you an export of your data.',
    button: 'Restore or export my account',
    ignore: 'If you did not delete your account, open the link and restore it, then change your password.',
  },
  // A revoked or expired Google grant (issue 48): sent once, by the process that marked it.
  'google-disconnected': {
    subject: `Your Google Business Profile was disconnected from ${PRODUCT_NAME}`,
    heading: 'Your Google Business Profile was disconnected',
    body: `Google no longer accepts ${PRODUCT_NAME}'s access to your Business Profile (the access was removed in your Google account, or it expired). Until you connect it again, Early Warning cannot read your new Google reviews and answers cannot be posted.`,
    button: 'Connect again',
    ignore: 'If you removed the access on purpose, ignore this e-mail: we no longer call Google for this profile.',
  },
  // A claim on a report domain holds nothing until verified (decision 0213).
  'report-domain-taken': (p) => ({
    subject: `Your claim on ${domainOf(p)} was released`,
    heading: 'Your report domain claim was released',
    body: `Another ${PRODUCT_NAME} account proved that it controls ${domainOf(p)} with the domain's DNS TXT record before your branding profile did, so the domain is theirs now and your claim on it was released. Your e-mails keep linking to our address.`,
    button: 'Open Branding',
    ignore: `If ${domainOf(p)} is yours, check who can change its DNS records, then add it again on the Branding page.`,
  }),
  'report-domain-expired': (p) => ({
    subject: `Your claim on ${domainOf(p)} ended unverified`,
    heading: 'Your report domain claim ended',
    body: `Your branding profile claimed ${domainOf(p)}, but its DNS TXT record was not found within 7 days, so the claim was released: an unverified claim cannot hold a domain longer. Your e-mails keep linking to our address.`,
    button: 'Open Branding',
    ignore: 'Add the domain again once its DNS records are in place, then press "Check DNS".',
  }),
};

export function accountEmail(ctx: AppContext, payload: AccountEmailPayload): MailMessage {
  const entry = COPY[payload.kind];
  const copy = typeof entry === 'function' ? entry(payload) : entry;
  const footer = `${OPERATOR.legalName}, ${OPERATOR.postalAddress}`;
  const text = [copy.heading, '', copy.body, '', `${copy.button}: ${payload.url}`, '', copy.ignore, '', '-- ', footer].join('\n');
  const html = `<!doctype html><html lang="en"><body style="margin:0;background:#f1f5f9;font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
<div style="max-width:560px;margin:0 auto;padding:32px 20px">
<div style="background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:28px">
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(copy.heading)}</h1>
<p style="margin:0 0 20px;font-size:15px;color:#334155">${escapeHtml(copy.body)}</p>
<p style="margin:0 0 20px"><a href="${escapeHtml(payload.url)}" style="display:inline-block;background:#2563eb;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">${escapeHtml(copy.button)}</a></p>
<p style="margin:0 0 12px;font-size:13px;color:#64748b">Or paste this address into your browser:<br><span style="word-break:break-all">${escapeHtml(payload.url)}</span></p>
<p style="margin:0;font-size:13px;color:#64748b">${escapeHtml(copy.ignore)}</p>
</div>
<p style="margin:16px 0 0;font-size:12px;color:#64748b;text-align:center">${escapeHtml(footer)}</p>
</div></body></html>`;
  const key = createHash('sha256').update(payload.ref ? `${payload.url}|${payload.ref}` : payload.url).digest('hex').slice(0, 24);
  return { messageId: messageIdFor(ctx, `account-${payload.kind}-${key}`), from: ctx.env.MAIL_FROM, to: payload.to, subject: copy.subject, text, html };
}

/** Queues one account e-mail. */
export async function enqueueAccountEmail(db: Db, payload: AccountEmailPayload): Promise<void> {
  await enqueue(db, { type: ACCOUNT_EMAIL, payload: { ...payload } });
}

export const accountEmailJob: JobDefinition<AccountEmailPayload> = {
  async run(ctx, job) {
    const p = job.payload;
    if (!p || !ACCOUNT_EMAIL_KINDS.includes(p.kind) || typeof p.to !== 'string' || typeof p.url !== 'string') throw new PermanentJobError('payload needs kind, to and url');
    await mailerFor(ctx).send(accountEmail(ctx, p));
  },
};
