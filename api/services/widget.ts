// The widget SDK's server side (issue 15): the agency's publishable keys, the public calls a
// widget makes from another site (config, lead, lead status, published score card) and the
// agency's leads. A lead is accepted and stored whatever happens next: when the agency's plan has
// lapsed or a limit is reached it waits, queued, and is released later (decision 0117).
import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { WidgetKeyInput, WidgetLeadInput } from '../../common/schemas/widget.ts';
import { WIDGET_HONEYPOT } from '../../common/schemas/widget.ts';
import {
  DEFAULT_WIDGET_THEME,
  originAllowed,
  originHost,
  WIDGET_KEY,
  WIDGET_KEY_PREFIX,
  WIDGET_NOT_ENABLED,
  widgetConsentText,
  type ScoreCardData,
  type WidgetComponent,
  type WidgetConfig,
  widgetTheme,
  type LeadDelivery,
  leadThanks,
  type LeadThanks,
} from '../../common/widget.ts';
import { REPORT_DELIVERY_TEXT } from '../../common/constants.ts';
import { users } from '../../db/schema/auth.ts';
import { brandingProfiles, clients, consultants } from '../../db/schema/consultants.ts';
import { reports } from '../../db/schema/reports.ts';
import { widgetKeys, widgetLeads } from '../../db/schema/widget.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { hasMarket, NO_MARKET, rankValue } from '../report/words/labels.ts';
import { enqueue } from '../jobs/queue.ts';
import type { ReportData } from '../report/model/types.ts';
import { createClient } from './clients.ts';
import type { ConsultantAccess } from './plans/consultant-access.ts';
import { can } from './plans/entitlements.ts';
import { consumeRateLimits } from './rate-limit.ts';
import { submitReportRequest, type Requester } from './report-requests.ts';
import { emitEvent } from './webhooks/webhooks.ts';

export type WidgetKeyRow = typeof widgetKeys.$inferSelect;
export type WidgetLeadRow = typeof widgetLeads.$inferSelect;

export const LEAD_NOTIFY = 'widget.lead-notify';
export const LEAD_DIGEST = 'widget.lead-digest';
/** The consent line's version; the text is widgetConsentText in common/widget.ts. */
export const WIDGET_CONSENT_TEXT_VERSION = 'widget-2026-11-24';
const HOUR_MS = 60 * 60 * 1000;

const keyNotFound = () => new AppError('not_found', 'Widget key not found');
const notEnabled = () => new AppError('forbidden', WIDGET_NOT_ENABLED);
export const newPublishableKey = () => `${WIDGET_KEY_PREFIX}${randomBytes(18).toString('base64url')}`;

export interface WidgetKeySummary {
  id: string;
  name: string;
  publishableKey: string;
  allowedHostnames: string[];
  brandingProfileId: string | null;
  components: WidgetComponent[];
  scoreCardClientId: string | null;
  leadEmails: 'each' | 'daily';
  revoked: boolean;
  createdAt: string;
}

const summary = (k: WidgetKeyRow): WidgetKeySummary => ({
  id: k.id,
  name: k.name,
  publishableKey: k.publishableKey,
  allowedHostnames: k.allowedHostnames,
  brandingProfileId: k.brandingProfileId,
  components: k.components,
  scoreCardClientId: k.scoreCardClientId,
  leadEmails: k.leadEmails,
  revoked: k.revokedAt !== null,
  createdAt: k.createdAt.toISOString(),
});

// ---- The agency's keys -------------------------------------------------------------------

export async function listKeys({ ctx, access }: { ctx: AppContext; access: ConsultantAccess }): Promise<WidgetKeySummary[]> {
  const rows = await ctx.db.select().from(widgetKeys).where(eq(widgetKeys.consultantId, access.consultant.id)).orderBy(asc(widgetKeys.createdAt));
  return rows.map(summary);
}

export async function ownedKey(ctx: AppContext, access: ConsultantAccess, id: string): Promise<WidgetKeyRow> {
  const row = await ctx.db.query.widgetKeys.findFirst({ where: and(eq(widgetKeys.id, id), eq(widgetKeys.consultantId, access.consultant.id)) });
  if (!row) throw keyNotFound();
  return row;
}

/** The profile and the client a key names must be the agency's own (else: as if unknown). */
async function checkReferences(ctx: AppContext, access: ConsultantAccess, input: WidgetKeyInput) {
  const fields: Record<string, string> = {};
  if (input.brandingProfileId) {
    const profile = await ctx.db.query.brandingProfiles.findFirst({ where: and(eq(brandingProfiles.id, input.brandingProfileId), eq(brandingProfiles.consultantId, access.consultant.id)) });
    if (!profile) fields.brandingProfileId = 'Branding profile not found';
  }
  if (input.scoreCardClientId) {
    const client = await ctx.db.query.clients.findFirst({ where: and(eq(clients.id, input.scoreCardClientId), eq(clients.consultantId, access.consultant.id)) });
    if (!client) fields.scoreCardClientId = 'Client not found';
  }
  if (Object.keys(fields).length) throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields });
}

export async function createKey({ ctx, access, input }: { ctx: AppContext; access: ConsultantAccess; input: WidgetKeyInput }) {
  await checkReferences(ctx, access, input);
  const [row] = await ctx.db
    .insert(widgetKeys)
    .values({ id: randomUUID(), consultantId: access.consultant.id, publishableKey: newPublishableKey(), ...input })
    .returning();
  return summary(row!);
}

export async function updateKey({ ctx, access, id, input }: { ctx: AppContext; access: ConsultantAccess; id: string; input: WidgetKeyInput }) {
  await ownedKey(ctx, access, id);
  await checkReferences(ctx, access, input);
  const [row] = await ctx.db.update(widgetKeys).set(input).where(eq(widgetKeys.id, id)).returning();
  return summary(row!);
}

/** A new publishable key for the same settings; the old one stops working at once. */
export async function rotateKey({ ctx, access, id }: { ctx: AppContext; access: ConsultantAccess; id: string }) {
  const key = await ownedKey(ctx, access, id);
  if (key.revokedAt) throw new AppError('conflict', 'A revoked key cannot be rotated.');
  const [row] = await ctx.db.update(widgetKeys).set({ publishableKey: newPublishableKey() }).where(eq(widgetKeys.id, id)).returning();
  return summary(row!);
}

export async function revokeKey({ ctx, access, id }: { ctx: AppContext; access: ConsultantAccess; id: string }) {
  await ownedKey(ctx, access, id);
  const [row] = await ctx.db.update(widgetKeys).set({ revokedAt: new Date() }).where(eq(widgetKeys.id, id)).returning();
  return summary(row!);
}

// ---- What a widget asks, from another site ----------------------------------------------

/**
 * The key a widget call names, if it may be used from this Origin: unknown, revoked and foreign
 * origins all answer 403 "not enabled for this site" (a stranger learns nothing about the key).
 */
export async function keyForOrigin(ctx: AppContext, publishableKey: string, origin: string | null | undefined): Promise<WidgetKeyRow> {
  if (!WIDGET_KEY.test(publishableKey)) throw notEnabled();
  const key = await ctx.db.query.widgetKeys.findFirst({ where: eq(widgetKeys.publishableKey, publishableKey) });
  if (!key || key.revokedAt || !originAllowed(origin, key.allowedHostnames)) throw notEnabled();
  return key;
}


async function profileOf(ctx: AppContext, key: WidgetKeyRow) {
  const byId = key.brandingProfileId ? await ctx.db.query.brandingProfiles.findFirst({ where: eq(brandingProfiles.id, key.brandingProfileId) }) : undefined;
  return byId ?? (await ctx.db.query.brandingProfiles.findFirst({ where: and(eq(brandingProfiles.consultantId, key.consultantId), eq(brandingProfiles.isDefault, true)) }));
}

export async function widgetConfig(ctx: AppContext, key: WidgetKeyRow): Promise<WidgetConfig> {
  const profile = await profileOf(ctx, key);
  const consultant = await ctx.db.query.consultants.findFirst({ where: eq(consultants.id, key.consultantId) });
  const agency = profile?.companyName ?? consultant?.companyName ?? '';
  return {
    agency,
    website: profile?.website ?? null,
    components: key.components,
    consent: widgetConsentText(agency),
    theme: profile ? widgetTheme(profile.primaryColor, profile.secondaryColor, profile.accentColor) : DEFAULT_WIDGET_THEME,
  };
}

export interface CapturedLead {
  leadId: string;
  /** Always 'received': the lead is kept whatever happens next. */
  status: 'received';
  /** When its report goes out, so the widget promises only that (decision 0171). */
  delivery: LeadDelivery;
  /** What the widget says to the visitor. */
  thanks: LeadThanks;
}

const DELIVERY_OF_REASON: Record<string, LeadDelivery> = { limit: 'hour', plan: 'later', address: 'review' };

/**
 * The one place a widget lead is created (its `lead.created` webhook event is emitted
 * here). Stored first, then its report is requested at once when the agency may, else queued.
 */
export async function captureLead({ ctx, key, origin, input, requester }: { ctx: AppContext; key: WidgetKeyRow; origin: string; input: WidgetLeadInput; requester: Requester }): Promise<CapturedLead> {
  // A bot that filled the hidden field is thanked and nothing is kept.
  const answer = async (leadId: string, delivery: LeadDelivery): Promise<CapturedLead> => ({ leadId, status: 'received', delivery, thanks: leadThanks(delivery, (await widgetConfig(ctx, key)).agency, REPORT_DELIVERY_TEXT) });
  if (input[WIDGET_HONEYPOT]) return answer(randomUUID(), 'minutes');
  // Abuse from one network, or for one address from many, is refused outright (a person sees the
  // message); every other limit queues. The address is counted here, when the lead is taken, not
  // when its report is requested: a queued lead would otherwise dodge it and be sent an hour later.
  await consumeRateLimits({
    ctx,
    input: [
      { key: `widget:ip:${requester.ip}`, limit: ctx.env.WIDGET_RATE_LIMIT_PER_IP, windowMs: HOUR_MS, message: 'Too many requests from your network. Please try again in an hour.' },
      {
        key: `widget:email:${input.email.trim().toLowerCase()}`,
        limit: ctx.env.INTAKE_RATE_LIMIT_PER_EMAIL,
        windowMs: HOUR_MS,
        message: 'Too many report requests for this email address. Please try again in an hour.',
      },
    ],
  });
  const { [WIDGET_HONEYPOT]: _, ...form } = input;
  const lead = {
    id: randomUUID(),
    consultantId: key.consultantId,
    widgetKeyId: key.id,
    brandingProfileId: (await profileOf(ctx, key))?.id ?? null,
    fullName: form.fullName,
    email: form.email,
    company: form.company,
    payload: form as Record<string, unknown>,
    sourceHostname: originHost(origin),
    ipAddress: requester.ip,
    userAgent: requester.userAgent,
    status: 'queued' as const,
    queuedReason: null,
    createdAt: new Date(),
  };
  await ctx.db.insert(widgetLeads).values(lead);
  const agency = await ctx.db.query.consultants.findFirst({ columns: { userId: true }, where: eq(consultants.id, key.consultantId) });
  if (agency) {
    const data = { id: lead.id, fullName: lead.fullName, email: lead.email, company: lead.company, sourceHostname: lead.sourceHostname, widgetKeyId: key.id, createdAt: lead.createdAt.toISOString() };
    await emitEvent(ctx, { userId: agency.userId, type: 'lead.created', eventKey: `lead.created:${lead.id}`, data });
  }
  const requested = await releaseLead(ctx, lead.id);
  if (key.leadEmails === 'each') await enqueue(ctx.db, { type: LEAD_NOTIFY, payload: { leadId: lead.id }, key: `${LEAD_NOTIFY}:${lead.id}` });
  if (requested) return answer(lead.id, 'minutes');
  const waiting = await ctx.db.query.widgetLeads.findFirst({ columns: { queuedReason: true }, where: eq(widgetLeads.id, lead.id) });
  return answer(lead.id, DELIVERY_OF_REASON[waiting?.queuedReason ?? ''] ?? 'later');
}

/**
 * Requests a queued lead's report if the agency may now: on a plan with the widget and within the
 * key's hourly limit. Otherwise the lead stays queued with the reason. True when requested.
 */
export async function releaseLead(ctx: AppContext, leadId: string): Promise<boolean> {
  const lead = await ctx.db.query.widgetLeads.findFirst({ where: eq(widgetLeads.id, leadId) });
  if (!lead || lead.status !== 'queued') return false;
  const [owner] = await ctx.db
    .select({ tier: users.subscriptionTier, status: users.subscriptionStatus })
    .from(consultants)
    .innerJoin(users, eq(users.id, consultants.userId))
    .where(eq(consultants.id, lead.consultantId));
  const wait = (reason: string) => ctx.db.update(widgetLeads).set({ queuedReason: reason }).where(eq(widgetLeads.id, lead.id)).then(() => false);
  if (!owner || !can({ subscriptionTier: owner.tier, subscriptionStatus: owner.status }, 'widget')) return wait('plan');
  try {
    await consumeRateLimits({
      ctx,
      input: [{ key: `widget:key:${lead.widgetKeyId ?? lead.consultantId}`, limit: ctx.env.WIDGET_RATE_LIMIT_PER_KEY, windowMs: HOUR_MS, message: 'The widget key reached its hourly limit.' }],
    });
    const { requestId } = await submitReportRequest({
      ctx,
      input: lead.payload as WidgetLeadInput,
      requester: { ip: lead.ipAddress ?? '', userAgent: lead.userAgent, userId: null },
      agency: { consultantId: lead.consultantId, brandingProfileId: lead.brandingProfileId, consentTextVersion: WIDGET_CONSENT_TEXT_VERSION },
    });
    await ctx.db.update(widgetLeads).set({ status: 'requested', queuedReason: null, requestId }).where(and(eq(widgetLeads.id, lead.id), eq(widgetLeads.status, 'queued')));
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === 'rate_limited') return wait('limit');
    // The address cannot be located offline and the like: the lead is kept and the agency sees why.
    if (error instanceof AppError && error.code === 'invalid_input') return wait('address');
    throw error;
  }
}

/** Every queued lead whose agency may now have its report (the scheduler's tick). */
export async function releaseQueuedLeads(ctx: AppContext, consultantId?: string): Promise<number> {
  const where = consultantId ? and(eq(widgetLeads.status, 'queued'), eq(widgetLeads.consultantId, consultantId)) : eq(widgetLeads.status, 'queued');
  const queued = await ctx.db.select({ id: widgetLeads.id, reason: widgetLeads.queuedReason }).from(widgetLeads).where(where).orderBy(asc(widgetLeads.createdAt)).limit(500);
  let released = 0;
  for (const lead of queued) if (lead.reason !== 'address' && (await releaseLead(ctx, lead.id))) released++;
  return released;
}

/** The widget card's rank line (its text is made here, keeping the widget within its size budget). */
function scoreCardRank(data: ReportData): string {
  const rank = rankValue(data.business, data);
  if (rank !== null) return `Rank #${rank} of ${data.competitors.length + 1} nearby`;
  if (hasMarket(data)) return 'Not ranked';
  const n = data.competitors.length;
  return `${NO_MARKET}: ${n === 0 ? 'no competitor' : `${n} competitor${n === 1 ? '' : 's'}`} nearby`;
}

const scoreCardOf = (data: ReportData): ScoreCardData => ({
  company: data.business.place.name,
  overall: data.business.scores.overall,
  // No rank without a market (decision 0216).
  rank: rankValue(data.business, data),
  of: data.competitors.length + 1,
  rankText: scoreCardRank(data),
  ...(hasMarket(data) ? {} : { empty: { marketShare: NO_MARKET } }),
  scores: {
    reviews: data.business.scores.reviews,
    digitalPresence: data.business.scores.digitalPresence,
    engagement: data.business.scores.engagement,
    marketShare: data.business.scores.marketShare,
  },
  sampleData: data.sampleData,
});

/** The visitor's own lead: 'pending' until the report is made, then its score card. */
export async function leadStatus(ctx: AppContext, key: WidgetKeyRow, leadId: string): Promise<{ status: 'pending' | 'ready'; scoreCard?: ScoreCardData }> {
  const lead = await ctx.db.query.widgetLeads.findFirst({ where: and(eq(widgetLeads.id, leadId), eq(widgetLeads.consultantId, key.consultantId)) });
  if (!lead) throw new AppError('not_found', 'Not found');
  if (!lead.requestId) return { status: 'pending' };
  const report = await ctx.db.query.reports.findFirst({ where: eq(reports.requestId, lead.requestId) });
  if (!report?.data) return { status: 'pending' };
  return { status: 'ready', scoreCard: scoreCardOf(report.data as ReportData) };
}

/** The client's latest scores the key publishes, with the agency's website to link to. */
export async function publishedScoreCard(ctx: AppContext, key: WidgetKeyRow): Promise<{ scoreCard: ScoreCardData | null; website: string | null }> {
  const profile = await profileOf(ctx, key);
  const website = profile?.website ?? null;
  if (!key.components.includes('score-card') || !key.scoreCardClientId) return { scoreCard: null, website };
  const client = await ctx.db.query.clients.findFirst({ where: and(eq(clients.id, key.scoreCardClientId), eq(clients.consultantId, key.consultantId)) });
  if (!client?.businessId) return { scoreCard: null, website };
  const [latest] = await ctx.db.select({ data: reports.data }).from(reports).where(eq(reports.businessId, client.businessId)).orderBy(desc(reports.createdAt)).limit(1);
  return { scoreCard: latest?.data ? scoreCardOf(latest.data as ReportData) : null, website };
}

/** Why a key's score card shows no scores: no score-card component, no client chosen, or the
 *  chosen client's business has no report yet. */
export type ScoreCardGap = 'component' | 'no_client' | 'no_report';

/** /widget's live preview of a key's score card: what `publishedScoreCard` answers the widget,
 *  with the chosen client's name and, when there are no scores, why (the agency sees the reason;
 *  the visitor sees "No scores are published yet."). */
export async function scoreCardPreview({ ctx, access, id }: { ctx: AppContext; access: ConsultantAccess; id: string }): Promise<{
  scoreCard: ScoreCardData | null;
  website: string | null;
  clientName: string | null;
  gap: ScoreCardGap | null;
}> {
  const key = await ownedKey(ctx, access, id);
  const published = await publishedScoreCard(ctx, key);
  const client = key.scoreCardClientId ? await ctx.db.query.clients.findFirst({ where: and(eq(clients.id, key.scoreCardClientId), eq(clients.consultantId, key.consultantId)) }) : undefined;
  const gap: ScoreCardGap | null = published.scoreCard ? null : !key.components.includes('score-card') ? 'component' : !client ? 'no_client' : 'no_report';
  return { ...published, clientName: client?.clientName ?? null, gap };
}

// ---- The agency's leads ------------------------------------------------------------------

export interface LeadSummary {
  id: string;
  fullName: string;
  company: string;
  email: string;
  sourceHostname: string;
  createdAt: string;
  status: 'queued' | 'processing' | 'ready';
  queuedReason: string | null;
  overall: number | null;
  rank: number | null;
  of: number | null;
  reportToken: string | null;
  clientId: string | null;
}

export async function listLeads({ ctx, access }: { ctx: AppContext; access: ConsultantAccess }): Promise<LeadSummary[]> {
  // Leads that waited for a lapsed plan go out as soon as the agency may again.
  await releaseQueuedLeads(ctx, access.consultant.id);
  const rows = await ctx.db
    .select({ lead: widgetLeads, data: reports.data, token: reports.token })
    .from(widgetLeads)
    .leftJoin(reports, eq(reports.requestId, widgetLeads.requestId))
    .where(eq(widgetLeads.consultantId, access.consultant.id))
    .orderBy(desc(widgetLeads.createdAt))
    .limit(1000);
  return rows.map(({ lead, data, token }) => {
    const card = data ? scoreCardOf(data as ReportData) : null;
    return {
      id: lead.id,
      fullName: lead.fullName,
      company: lead.company,
      email: lead.email,
      sourceHostname: lead.sourceHostname,
      createdAt: lead.createdAt.toISOString(),
      status: lead.status === 'queued' ? 'queued' : card ? 'ready' : 'processing',
      queuedReason: lead.queuedReason,
      overall: card?.overall ?? null,
      rank: card?.rank ?? null,
      of: card?.of ?? null,
      reportToken: token ?? null,
      clientId: lead.clientId,
    };
  });
}

const csvCell = (value: unknown) => {
  let text = value === null || value === undefined ? '' : String(value);
  // A cell a spreadsheet would run as a formula is written as text.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export async function leadsCsv({ ctx, access }: { ctx: AppContext; access: ConsultantAccess }): Promise<string> {
  const leads = await listLeads({ ctx, access });
  const header = ['Name', 'Business', 'E-mail', 'Overall score', 'Rank', 'Of', 'Status', 'Date', 'Source hostname'];
  const lines = leads.map((l) => [l.fullName, l.company, l.email, l.overall, l.rank, l.of, l.status, l.createdAt, l.sourceHostname].map(csvCell).join(','));
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}

/** Makes a lead one of the agency's clients (its business and branding), once. */
export async function convertLead({ ctx, access, leadId }: { ctx: AppContext; access: ConsultantAccess; leadId: string }) {
  const lead = await ctx.db.query.widgetLeads.findFirst({ where: and(eq(widgetLeads.id, leadId), eq(widgetLeads.consultantId, access.consultant.id)) });
  if (!lead) throw new AppError('not_found', 'Lead not found');
  if (lead.clientId) throw new AppError('conflict', 'This lead is a client already.');
  const form = lead.payload as WidgetLeadInput;
  const client = await createClient({
    ctx,
    access,
    input: {
      clientName: form.fullName,
      clientEmail: form.email,
      company: form.company,
      website: form.website,
      address: form.address,
      city: form.city,
      state: form.state,
      zip: form.zip,
      brandingProfileId: lead.brandingProfileId,
    },
  });
  await ctx.db.update(widgetLeads).set({ clientId: client.id }).where(and(eq(widgetLeads.id, lead.id), isNull(widgetLeads.clientId)));
  return { clientId: client.id };
}

/** Leads not yet e-mailed to the agency, oldest first (the daily digest reads them). */
export async function unnotifiedLeads(ctx: AppContext, consultantId: string) {
  return ctx.db
    .select()
    .from(widgetLeads)
    .where(and(eq(widgetLeads.consultantId, consultantId), isNull(widgetLeads.notifiedAt)))
    .orderBy(asc(widgetLeads.createdAt))
    .limit(500);
}
