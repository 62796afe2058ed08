// An account's data export (/account → Your data, and during the grace period of a closed account
// from its restore page): a request makes a `data.export` job that writes a ZIP with a README, one
// JSON file per table of the registry that has an export reading (CSV too where a spreadsheet is
// the natural reader), the reports' PDFs, the branding logos and, with billing, the invoices'
// dates and amounts. The user gets a signed link valid EXPORT_LINK_DAYS. One export per 24 hours.
// The ZIP is kept in the database (./export-archive.ts, decision 0208): any process serves the link.
import { and, desc, eq } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { PRODUCT_NAME } from '../../../common/constants.ts';
import { users } from '../../../db/schema/auth.ts';
import { dataExports } from '../../../db/schema/data-rights.ts';
import type { AppContext } from '../../context.ts';
import { enqueueAccountEmail } from '../../email/account-email.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { JobDefinition } from '../../jobs/types.ts';
import { PermanentJobError } from '../../jobs/errors.ts';
import { checkLink, signLink } from '../../lib/signed-link.ts';
import { readOrRenderReportFile } from '../../report/files/render.ts';
import { inlineRenderer, type Renderer } from '../../report/render/renderer.ts';
import { AppError, notFound } from '../../errors.ts';
import { logoFileOf, readLogo } from '../branding/logos.ts';
import { billingConfigured, stripeFor } from '../billing/stripe.ts';
import { EXPORT_MAX_BYTES, openArchive, purgeExpiredArchives, storeArchive } from './export-archive.ts';
import { TABLES } from './registry.ts';

export const DATA_EXPORT = 'data.export';
export const EXPORT_LINK_DAYS = 7;
export const EXPORT_EVERY_HOURS = 24;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export const EXPORT_LIMIT_MESSAGE = `You can request one export every ${EXPORT_EVERY_HOURS} hours. The latest one is on its way to your inbox, or its link is in an earlier e-mail.`;

/** Queues an export of the account; refused (429) when one was requested in the last 24 hours. */
export async function requestExport(ctx: AppContext, userId: string, now = new Date()): Promise<{ exportId: string }> {
  const latest = await ctx.db.query.dataExports.findFirst({ where: eq(dataExports.userId, userId), orderBy: [desc(dataExports.createdAt)] });
  if (latest && now.getTime() - latest.createdAt.getTime() < EXPORT_EVERY_HOURS * HOUR_MS) {
    const retryAfterSeconds = Math.ceil((latest.createdAt.getTime() + EXPORT_EVERY_HOURS * HOUR_MS - now.getTime()) / 1000);
    throw new AppError('rate_limited', EXPORT_LIMIT_MESSAGE, { retryAfterSeconds });
  }
  const [row] = await ctx.db.insert(dataExports).values({ userId, createdAt: now }).returning({ id: dataExports.id });
  await enqueue(ctx.db, { type: DATA_EXPORT, payload: { exportId: row!.id }, key: `${DATA_EXPORT}:${row!.id}` });
  return { exportId: row!.id };
}

/** `npm run admin -- export <email>`: an export for a request that arrives by e-mail (an account the operator closed included). */
export async function requestAccountExport(ctx: AppContext, email: string): Promise<{ email: string; exportId: string }> {
  const address = email.trim().toLowerCase();
  const user = await ctx.db.query.users.findFirst({ where: eq(users.email, address) });
  if (!user) throw notFound(`No account uses '${address}'. For a visitor's free reports, use forget or answer by e-mail.`);
  return { email: user.email, ...(await requestExport(ctx, user.id)) };
}

/** The latest export of the account, for the Your data card. */
export async function latestExport(ctx: AppContext, userId: string) {
  const row = await ctx.db.query.dataExports.findFirst({ where: eq(dataExports.userId, userId), orderBy: [desc(dataExports.createdAt)] });
  if (!row) return null;
  return {
    status: row.status,
    requestedAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    nextAllowedAt: new Date(row.createdAt.getTime() + EXPORT_EVERY_HOURS * HOUR_MS).toISOString(),
  };
}

type Value = string | number | boolean | null | object;

/** JSON columns come back from SQL as text: give them back as JSON. */
function parsed(row: Record<string, unknown>): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(row)) {
    if (typeof v === 'string' && /^[[{]/.test(v)) {
      try {
        out[k] = JSON.parse(v) as object;
        continue;
      } catch {
        // plain text that happens to start with a bracket
      }
    }
    out[k] = typeof v === 'bigint' ? Number(v) : (v as Value);
  }
  return out;
}

function csvOf(rows: Record<string, Value>[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: Value | undefined) => {
    const text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\r\n') + '\r\n';
}

async function invoices(ctx: AppContext, customerId: string | null) {
  if (!customerId || !billingConfigured(ctx.env)) return null;
  const list = await stripeFor(ctx).invoices.list({ customer: customerId, limit: 100 });
  // Dates and amounts only: never card or payment-method data.
  return list.data.map((i) => ({
    number: i.number,
    date: new Date(i.created * 1000).toISOString(),
    amountDue: i.amount_due / 100,
    amountPaid: i.amount_paid / 100,
    currency: i.currency,
    status: i.status,
  }));
}

/** Builds the ZIP's entries (file name → bytes) for an account. */
export async function exportEntries(ctx: AppContext, userId: string, renderer: () => Renderer): Promise<Record<string, Uint8Array>> {
  const user = await ctx.db.query.users.findFirst({ where: eq(users.id, userId) });
  if (!user) throw notFound('No such account.');
  const args = { userId, email: user.email.toLowerCase() };
  const files: Record<string, Uint8Array> = {};
  const text = (s: string) => new TextEncoder().encode(s);
  const listed: string[] = [];
  const tables: Record<string, Record<string, Value>[]> = {};
  for (const [table, rule] of Object.entries(TABLES)) {
    if (!rule.exportRows) continue;
    const rows = (await ctx.db.$client.execute({ sql: rule.exportRows.sql, args })).rows.map((r) => parsed({ ...r }));
    tables[table] = rows;
    files[`${rule.exportRows.file}.json`] = text(JSON.stringify(rows, null, 2) + '\n');
    listed.push(`${rule.exportRows.file}.json${rule.exportRows.csv ? ` and ${rule.exportRows.file}.csv` : ''}: ${rule.holds} (${rows.length} ${rows.length === 1 ? 'row' : 'rows'})`);
    if (rule.exportRows.csv) files[`${rule.exportRows.file}.csv`] = text(csvOf(rows));
  }
  const billing = await invoices(ctx, user.stripeCustomerId);
  if (billing) {
    files['invoices.json'] = text(JSON.stringify(billing, null, 2) + '\n');
    files['invoices.csv'] = text(csvOf(billing));
    listed.push(`invoices.json and invoices.csv: your invoices' numbers, dates and amounts from our payment provider (${billing.length}); never card details`);
  }
  let pdfs = 0;
  for (const report of tables.reports ?? []) {
    if (!report.data) continue;
    // In the branding it was sent in (an agency's client report stays white-label).
    const nullable = (v: unknown) => (v === null || v === undefined ? null : String(v));
    const pdf = await readOrRenderReportFile(ctx, { id: String(report.id), data: report.data, consultantId: nullable(report.consultant_id), brandingProfileId: nullable(report.branding_profile_id) }, 'pdf', renderer);
    if (pdf) {
      files[`reports/${String(report.id)}.pdf`] = new Uint8Array(pdf);
      pdfs++;
    }
  }
  listed.push(`reports/{id}.pdf: each report as the PDF that was sent, one per report in reports.json (${pdfs})`);
  let logos = 0;
  for (const profile of tables.branding_profiles ?? []) {
    const file = logoFileOf(typeof profile.logo_url === 'string' ? profile.logo_url : null);
    const logo = file ? await readLogo(ctx, file) : null;
    if (logo) {
      files[`logos/${String(profile.id)}.png`] = new Uint8Array(logo);
      logos++;
    }
  }
  if (tables.branding_profiles) listed.push(`logos/{branding profile id}.png: your branding profiles' logos, as PNG files (${logos})`);
  files['README.txt'] = text(
    [
      `Your ${PRODUCT_NAME} data export`,
      `Account: ${user.email}`,
      `Made: ${new Date().toISOString()}`,
      '',
      'Each .json file holds one kind of record as a list; the .csv files hold the same rows for a spreadsheet',
      '(nested values, such as a report\'s analysis, are written as JSON in their cell). Times are milliseconds',
      'since 1970-01-01 UTC in the JSON and CSV files. Passwords, session tokens, report link tokens and card',
      'details are never exported.',
      '',
      'Files:',
      ...listed.map((l) => `- ${l}`),
      '',
      'How each kind of data is kept, exported and erased: docs/privacy-data.md, linked from the privacy policy.',
      '',
    ].join('\n'),
  );
  return files;
}

export async function downloadLinkUrl(ctx: AppContext, exportId: string, expiresAt: Date): Promise<string> {
  return `${ctx.env.PUBLIC_BASE_URL}/api/data-exports/download?token=${encodeURIComponent(await signLink(ctx, 'export-download', exportId, expiresAt))}`;
}

export function dataExportJob(deps: { renderer?: Renderer }): JobDefinition<{ exportId: string }> {
  return {
    async run(ctx, job, tools) {
      const id = job.payload?.exportId;
      if (typeof id !== 'string') throw new PermanentJobError('payload needs exportId');
      const row = await ctx.db.query.dataExports.findFirst({ where: eq(dataExports.id, id) });
      if (!row) throw new PermanentJobError(`export ${id} not found`);
      if (row.status === 'ready') return;
      const user = (await ctx.db.query.users.findFirst({ where: eq(users.id, row.userId) }))!;
      const entries = await exportEntries(ctx, row.userId, () => deps.renderer ?? inlineRenderer());
      const zip = zipSync(entries, { level: 6 });
      if (zip.byteLength > EXPORT_MAX_BYTES) {
        throw new PermanentJobError(`export ${id} is ${Math.ceil(zip.byteLength / 2 ** 20)} MB, more than the ${EXPORT_MAX_BYTES / 2 ** 20} MB an export may be`);
      }
      const now = new Date();
      const expiresAt = new Date(now.getTime() + EXPORT_LINK_DAYS * DAY_MS);
      // Another run of this job stored it first (a lost lease): that run sends the e-mail.
      if (!(await storeArchive(ctx, id, zip, { readyAt: now, expiresAt }, tools.signal))) return;
      await enqueueAccountEmail(ctx.db, { kind: 'export-ready', to: user.email, url: await downloadLinkUrl(ctx, id, expiresAt) });
      ctx.log.info('data export ready', { exportId: id, bytes: zip.byteLength });
    },
    async onGiveUp(ctx, job) {
      if (typeof job.payload?.exportId === 'string') await ctx.db.update(dataExports).set({ status: 'failed' }).where(eq(dataExports.id, job.payload.exportId));
    },
  };
}

/** The ZIP behind a download link, as a stream read from the database, or why not. */
export async function readExport(ctx: AppContext, token: string, now = new Date()): Promise<{ body: ReadableStream<Uint8Array>; bytes: number; fileName: string }> {
  const link = await checkLink(ctx, 'export-download', token, now);
  if (link.state === 'expired') throw new AppError('gone', 'This download link has expired. Request a new export from your account page.');
  if (link.state !== 'valid') throw notFound('This download link is not valid.');
  const row = await ctx.db.query.dataExports.findFirst({ where: and(eq(dataExports.id, link.subject), eq(dataExports.status, 'ready')) });
  const body = row ? await openArchive(ctx, row) : null;
  if (!row || !body) throw new AppError('gone', 'This export is no longer available. Request a new one from your account page.');
  return { body, bytes: row.bytes!, fileName: `localrank-data-${row.createdAt.toISOString().slice(0, 10)}.zip` };
}

/** Removes the archives of exports whose link has expired, for every process at once (the daily purge). */
export const purgeExpiredExports = (ctx: AppContext, now = new Date()): Promise<number> => purgeExpiredArchives(ctx, now);
