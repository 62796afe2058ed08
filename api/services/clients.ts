// A consultant's clients: the list with each client's latest scores, adding one (its business is
// stored and reported on at once), editing, archiving and deleting. Every function takes the
// ConsultantAccess from requireConsultant and touches only that consultant's rows; another
// consultant's client id is "Client not found", as an unknown one is.
import { isMarket } from '../../common/constants.ts';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { CreateClientInput, ReportFrequency, UpdateClientInput } from '../../common/schemas/clients.ts';
import { businesses } from '../../db/schema/businesses.ts';
import { brandingProfiles, clients } from '../../db/schema/consultants.ts';
import { reports } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { enqueueStatement } from '../jobs/queue.ts';
import { reportFiles } from '../report/files/store.ts';
import { CLIENT_REPORT, clientReportKey, COPY_TYPE, nextClientReport, type ClientReportPayload } from './client-report-schedule.ts';
import type { ConsultantAccess } from './plans/consultant-access.ts';
import { optOutsOf } from './reports.ts';

export const clientNotFound = () => new AppError('not_found', 'Client not found');
type ClientRow = typeof clients.$inferSelect;

export interface ClientSummary {
  id: string;
  clientName: string;
  clientEmail: string;
  notes: string | null;
  reportFrequency: ReportFrequency;
  brandingProfileId: string | null;
  archived: boolean;
  createdAt: string;
  business: { id: string; company: string; website: string; address: string; city: string; state: string; zip: string } | null;
  latest: { overall: number | null; rank: number | null; of: number; reportedAt: string; change: number | null } | null;
  /** Null when none is scheduled: archived, not analysed yet, or the client unsubscribed. */
  nextReport: string | null;
  /** When the client unsubscribed from its report e-mails (they are paused since); null when subscribed. */
  unsubscribedAt: string | null;
}

// Each client with its business and the latest two snapshots of the business itself (the change
// since the last report) and the latest run's rank. ?1 consultant id.
const LIST_SQL = `
SELECT cl.id, cl.client_name, cl.client_email, cl.notes, cl.report_frequency, cl.branding_profile_id, cl.archived_at, cl.created_at,
  b.id AS business_id, b.company, b.website, b.address, b.city, b.state, b.zip,
  m.overall_score AS overall, m.reported_at, m.run_id,
  (SELECT p.overall_score FROM business_metrics p WHERE p.business_id = b.id AND p.is_main_business = 1 AND p.reported_at < m.reported_at
     ORDER BY p.reported_at DESC LIMIT 1) AS previous,
  (SELECT count(*) FROM business_metrics r WHERE r.run_id = m.run_id) AS places,
  (SELECT count(*) FROM business_metrics r WHERE r.run_id = m.run_id AND r.overall_score > m.overall_score) AS higher
FROM clients cl
LEFT JOIN businesses b ON b.id = cl.business_id
LEFT JOIN business_metrics m ON m.id = (
  SELECT x.id FROM business_metrics x WHERE x.business_id = b.id AND x.is_main_business = 1 ORDER BY x.reported_at DESC LIMIT 1)
WHERE cl.consultant_id = ?1
ORDER BY cl.archived_at IS NOT NULL, lower(cl.client_name)`;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export async function listClients({ ctx, access, search, now = new Date() }: { ctx: AppContext; access: ConsultantAccess; search?: string; now?: Date }): Promise<ClientSummary[]> {
  const { rows } = await ctx.db.$client.execute({ sql: LIST_SQL, args: [access.consultant.id] });
  const optOuts = await optOutsOf(ctx, rows.map((r) => String(r.client_email)));
  const all = rows.map((r): ClientSummary => {
    const overall = num(r.overall);
    const previous = num(r.previous);
    const archived = r.archived_at !== null;
    const unsubscribedAt = optOuts.get(String(r.client_email).toLowerCase()) ?? null;
    return {
      id: String(r.id),
      clientName: String(r.client_name),
      clientEmail: String(r.client_email),
      notes: r.notes === null ? null : String(r.notes),
      reportFrequency: String(r.report_frequency) as ReportFrequency,
      brandingProfileId: r.branding_profile_id === null ? null : String(r.branding_profile_id),
      archived,
      createdAt: new Date(Number(r.created_at)).toISOString(),
      business:
        r.business_id === null
          ? null
          : { id: String(r.business_id), company: String(r.company), website: String(r.website), address: String(r.address), city: String(r.city), state: String(r.state), zip: String(r.zip) },
      latest:
        r.reported_at === null
          ? null
          : {
              overall,
              // No rank without a market: fewer than MIN_MARKET_COMPETITORS competitors (decision 0216).
              rank: overall === null || !isMarket(Number(r.places) - 1) ? null : Number(r.higher) + 1,
              of: Number(r.places),
              reportedAt: new Date(Number(r.reported_at)).toISOString(),
              change: overall !== null && previous !== null ? Math.round((overall - previous) * 100) / 100 : null,
            },
      nextReport: archived || r.business_id === null || unsubscribedAt ? null : nextClientReport(String(r.report_frequency) as ReportFrequency, now).toISOString(),
      unsubscribedAt: unsubscribedAt?.toISOString() ?? null,
    };
  });
  const q = search?.trim().toLowerCase();
  if (!q) return all;
  return all.filter((c) => [c.clientName, c.clientEmail, c.business?.company ?? '', c.business?.city ?? '', c.notes ?? ''].some((s) => s.toLowerCase().includes(q)));
}

export async function getClient({ ctx, access, clientId }: { ctx: AppContext; access: ConsultantAccess; clientId: string }): Promise<ClientSummary> {
  const found = (await listClients({ ctx, access })).find((c) => c.id === clientId);
  if (!found) throw clientNotFound();
  return found;
}

export async function ownedClient(ctx: AppContext, access: ConsultantAccess, clientId: string): Promise<ClientRow> {
  const row = await ctx.db.query.clients.findFirst({ where: and(eq(clients.id, clientId), eq(clients.consultantId, access.consultant.id)) });
  if (!row) throw clientNotFound();
  return row;
}

/** A branding profile id given by the caller must be one of theirs (else the field is wrong). */
async function checkProfile(ctx: AppContext, access: ConsultantAccess, id: string | null | undefined) {
  if (!id) return;
  const profile = await ctx.db.query.brandingProfiles.findFirst({ where: and(eq(brandingProfiles.id, id), eq(brandingProfiles.consultantId, access.consultant.id)) });
  if (!profile) throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { brandingProfileId: 'No such branding profile' } });
}

/** Stores the client and its business, and queues its first report in the same transaction. */
export async function createClient({ ctx, access, input }: { ctx: AppContext; access: ConsultantAccess; input: CreateClientInput }) {
  await checkProfile(ctx, access, input.brandingProfileId);
  const now = new Date();
  const businessId = randomUUID();
  const clientId = randomUUID();
  const payload: ClientReportPayload = { clientId, kind: 'first', period: 'first' };
  await ctx.db.batch([
    ctx.db.insert(businesses).values({
      id: businessId,
      userId: null,
      fullName: input.clientName,
      email: input.clientEmail,
      company: input.company,
      role: 'owner',
      website: input.website,
      address: input.address,
      city: input.city,
      state: input.state,
      zip: input.zip,
      createdAt: now,
      updatedAt: now,
    }),
    ctx.db.insert(clients).values({
      id: clientId,
      consultantId: access.consultant.id,
      businessId,
      clientName: input.clientName,
      clientEmail: input.clientEmail,
      notes: input.notes || null,
      reportFrequency: input.reportFrequency ?? 'monthly',
      brandingProfileId: input.brandingProfileId ?? null,
      createdAt: now,
      updatedAt: now,
    }),
    enqueueStatement(ctx.db, { type: CLIENT_REPORT, payload: { ...payload }, key: clientReportKey(payload) }),
  ]);
  return getClient({ ctx, access, clientId });
}

export async function updateClient({ ctx, access, clientId, input }: { ctx: AppContext; access: ConsultantAccess; clientId: string; input: UpdateClientInput }) {
  const row = await ownedClient(ctx, access, clientId);
  await checkProfile(ctx, access, input.brandingProfileId);
  const { archived, ...fields } = input;
  const set: Partial<typeof clients.$inferInsert> = { ...fields, updatedAt: new Date() };
  if (fields.notes !== undefined) set.notes = fields.notes || null;
  if (archived !== undefined) set.archivedAt = archived ? (row.archivedAt ?? new Date()) : null;
  await ctx.db.update(clients).set(set).where(eq(clients.id, row.id));
  return getClient({ ctx, access, clientId });
}

/** What deleting a client removes, spelled out for the confirmation. */
export async function deletionPreview(ctx: AppContext, access: ConsultantAccess, clientId: string) {
  const row = await ownedClient(ctx, access, clientId);
  const sent = await ctx.db.select({ type: reports.reportType }).from(reports).where(eq(reports.clientId, row.id));
  // The reports sent for the client (the consultant's copies go with them, uncounted).
  return { clientName: row.clientName, reports: sent.filter((r) => r.type !== COPY_TYPE).length, businessRemoved: row.businessId ? !(await businessHeldElsewhere(ctx, row)) : false };
}

async function businessHeldElsewhere(ctx: AppContext, row: ClientRow): Promise<boolean> {
  if (!row.businessId) return false;
  const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, row.businessId) });
  if (business?.userId) return true;
  const other = await ctx.db.query.clients.findFirst({ where: and(eq(clients.businessId, row.businessId), ne(clients.id, row.id)) });
  return Boolean(other);
}

/**
 * Deletes the client, the reports sent for it (rows and files) and, unless an account or another
 * client holds it, its business with every snapshot, competitor and alert (the schema cascades).
 */
export async function deleteClient({ ctx, access, clientId }: { ctx: AppContext; access: ConsultantAccess; clientId: string }) {
  const row = await ownedClient(ctx, access, clientId);
  const removeBusiness = row.businessId !== null && !(await businessHeldElsewhere(ctx, row));
  const sent = await ctx.db.select({ id: reports.id, type: reports.reportType }).from(reports).where(removeBusiness ? eq(reports.businessId, row.businessId!) : eq(reports.clientId, row.id));
  const ids = sent.map((r) => r.id);
  await ctx.db.batch([
    ctx.db.delete(reports).where(ids.length ? inArray(reports.id, ids) : isNull(reports.id)),
    ctx.db.delete(clients).where(eq(clients.id, row.id)),
    ...(removeBusiness ? [ctx.db.delete(businesses).where(eq(businesses.id, row.businessId!))] : []),
  ]);
  for (const id of ids) rmSync(reportFiles(ctx, id).dir, { recursive: true, force: true });
  return { deleted: true, reports: sent.filter((r) => r.type !== COPY_TYPE).length, businessRemoved: removeBusiness };
}
