import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { reportRequests } from './businesses.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { brandingProfiles, clients, consultants } from './consultants.ts';

// Publishable widget keys (issue 15): safe in a page's source, they say only which agency, which
// hostnames may embed it, its branding profile and which components it serves.
export const widgetKeys = sqliteTable(
  'widget_keys',
  {
    id: id(),
    consultantId: text('consultant_id')
      .notNull()
      .references(() => consultants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    // `lr_pk_…`; replaced on rotation (the old one stops working at once).
    publishableKey: text('publishable_key').notNull().unique(),
    allowedHostnames: text('allowed_hostnames', { mode: 'json' }).$type<string[]>().notNull(),
    brandingProfileId: text('branding_profile_id').references(() => brandingProfiles.id, { onDelete: 'set null' }),
    components: text('components', { mode: 'json' }).$type<Array<'report-form' | 'score-card'>>().notNull(),
    // The client whose latest scores the score card publishes (null: no score card content).
    scoreCardClientId: text('score_card_client_id').references(() => clients.id, { onDelete: 'set null' }),
    // How the agency hears of new leads: one e-mail each, or a daily digest.
    leadEmails: text('lead_emails', { enum: ['each', 'daily'] }).notNull().default('each'),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('widget_keys_consultant_id_idx').on(t.consultantId),
    index('widget_keys_branding_profile_id_idx').on(t.brandingProfileId),
    index('widget_keys_score_card_client_id_idx').on(t.scoreCardClientId),
  ],
);

// Every form submitted through a widget: the agency's lead. Accepted at once and kept whatever the
// agency's plan; `requestId` is set when the lead's report request is made (at once, or later for
// a lead queued while the plan had lapsed or a limit was reached).
export const widgetLeads = sqliteTable(
  'widget_leads',
  {
    id: id(),
    consultantId: text('consultant_id')
      .notNull()
      .references(() => consultants.id, { onDelete: 'cascade' }),
    widgetKeyId: text('widget_key_id').references(() => widgetKeys.id, { onDelete: 'set null' }),
    brandingProfileId: text('branding_profile_id').references(() => brandingProfiles.id, { onDelete: 'set null' }),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    company: text('company').notNull(),
    // The whole form as submitted (the report request's fields and consent).
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    sourceHostname: text('source_hostname').notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    status: text('status', { enum: ['queued', 'requested'] }).notNull(),
    // Why a lead waits: the plan has lapsed, or a rate limit was reached.
    queuedReason: text('queued_reason'),
    requestId: text('request_id').references(() => reportRequests.id, { onDelete: 'set null' }),
    clientId: text('client_id').references(() => clients.id, { onDelete: 'set null' }),
    notifiedAt: integer('notified_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('widget_leads_consultant_created_idx').on(t.consultantId, t.createdAt),
    index('widget_leads_status_idx').on(t.status),
    index('widget_leads_widget_key_id_idx').on(t.widgetKeyId),
    index('widget_leads_branding_profile_id_idx').on(t.brandingProfileId),
    index('widget_leads_request_id_idx').on(t.requestId),
    index('widget_leads_client_id_idx').on(t.clientId),
  ],
);
