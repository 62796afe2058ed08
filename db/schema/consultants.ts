import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './auth.ts';
import { businesses } from './businesses.ts';
import { createdAt, id, updatedAt } from './columns.ts';

export const consultants = sqliteTable(
  'consultants',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyName: text('company_name').notNull(),
    subscriptionTier: text('subscription_tier').notNull().default('free'),
    subscriptionStatus: text('subscription_status').notNull().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
);

export const brandingProfiles = sqliteTable(
  'branding_profiles',
  {
    id: id(),
    consultantId: text('consultant_id')
      .notNull()
      .references(() => consultants.id, { onDelete: 'cascade' }),
    companyName: text('company_name').notNull(),
    logoUrl: text('logo_url'),
    primaryColor: text('primary_color').notNull().default('#3B82F6'),
    secondaryColor: text('secondary_color').notNull().default('#1F2937'),
    accentColor: text('accent_color').notNull().default('#059669'),
    contactEmail: text('contact_email'),
    contactPhone: text('contact_phone'),
    website: text('website'),
    footerText: text('footer_text'),
    // The profile a client without one of its own is reported in (one per consultant).
    isDefault: integer('is_default', { mode: 'boolean' }).notNull().default(false),
    // "Powered by LocalRank" under the agency's branding: off unless the agency turns it on.
    poweredBy: integer('powered_by', { mode: 'boolean' }).notNull().default(false),
    // The profile's own report domain (reports.agency.example): its e-mails' links point there once
    // a DNS TXT record with `domainToken` proves the agency controls it (decision 0172). Until then
    // it is a claim that holds nothing: several profiles may claim one domain, the first to verify
    // keeps it and the others are released, and a claim unverified for 7 days ends (decision 0213).
    customDomain: text('custom_domain'),
    domainToken: text('domain_token'),
    domainClaimedAt: integer('domain_claimed_at', { mode: 'timestamp_ms' }),
    domainVerifiedAt: integer('domain_verified_at', { mode: 'timestamp_ms' }),
    // The last claim the product released, shown on /branding until the agency adds a domain again.
    domainReleased: text('domain_released', { mode: 'json' }).$type<ReleasedDomain>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('branding_profiles_consultant_id_idx').on(t.consultantId),
    index('branding_profiles_custom_domain_idx').on(t.customDomain),
    // One verified profile per domain: the first verification wins, a second one is refused.
    uniqueIndex('branding_profiles_verified_domain_unique').on(t.customDomain).where(sql`domain_verified_at IS NOT NULL`),
  ],
);

/** Why a profile's claim on a report domain was released, and when. */
export interface ReleasedDomain {
  domain: string;
  /** `taken`: another account verified the domain first; `expired`: not verified within 7 days. */
  reason: 'taken' | 'expired';
  at: string;
}

export const clients = sqliteTable(
  'clients',
  {
    id: id(),
    consultantId: text('consultant_id')
      .notNull()
      .references(() => consultants.id, { onDelete: 'cascade' }),
    businessId: text('business_id').references(() => businesses.id, { onDelete: 'set null' }),
    clientName: text('client_name').notNull(),
    clientEmail: text('client_email').notNull(),
    notes: text('notes'),
    // null: the consultant's default profile (white-label is the agency plan's).
    brandingProfileId: text('branding_profile_id').references(() => brandingProfiles.id, { onDelete: 'set null' }),
    reportFrequency: text('report_frequency', { enum: ['monthly', 'weekly'] }).notNull().default('monthly'),
    // Archived clients keep their history but get no scheduled reports.
    archivedAt: integer('archived_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('clients_consultant_id_idx').on(t.consultantId),
    index('clients_business_id_idx').on(t.businessId),
    index('clients_branding_profile_id_idx').on(t.brandingProfileId),
  ],
);

// An agency's own SMTP server for its white-label mail (issue 25): its clients' and widget
// visitors' reports leave from the agency's domain, not ours. The password is stored encrypted
// (AES-256-GCM with MAIL_SECRET_KEY from the environment, api/services/agency-mail/mail-server.ts).
export const agencyMailServers = sqliteTable('agency_mail_servers', {
  consultantId: text('consultant_id')
    .primaryKey()
    .references(() => consultants.id, { onDelete: 'cascade' }),
  host: text('host').notNull(),
  port: integer('port').notNull(),
  // 'tls': TLS from the first byte (465); 'starttls': upgraded, required (587); 'none': plain (tests, local relays).
  security: text('security', { enum: ['tls', 'starttls', 'none'] }).notNull(),
  username: text('username'),
  passwordEncrypted: text('password_encrypted'),
  fromAddress: text('from_address').notNull(),
  // The last "send a test": when it went out, or the server's answer when it did not.
  testedAt: integer('tested_at', { mode: 'timestamp_ms' }),
  lastError: text('last_error'),
  // Since when the server has been away (not found, refusing, silent): the outage the agency is
  // told about once; cleared when the server answers again (decision 0210).
  unavailableSince: integer('unavailable_since', { mode: 'timestamp_ms' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
