import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('branding_profiles_consultant_id_idx').on(t.consultantId)],
);

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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('clients_consultant_id_idx').on(t.consultantId), index('clients_business_id_idx').on(t.businessId)],
);
