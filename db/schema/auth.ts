// better-auth's tables. The spec's `users` entity lives on better-auth's user table (model name
// `users`); the password lives where better-auth keeps it, on the credential `accounts` row.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, id, updatedAt } from './columns.ts';

export const users = sqliteTable('users', {
  id: id(),
  name: text('name').notNull().default(''),
  email: text('email').notNull().unique(),
  emailVerified: integer('email_verified', { mode: 'boolean' }).notNull().default(false),
  image: text('image'),
  role: text('role').notNull(),
  stripeCustomerId: text('stripe_customer_id'),
  stripeSubscriptionId: text('stripe_subscription_id'),
  subscriptionTier: text('subscription_tier').notNull().default('free'),
  subscriptionStatus: text('subscription_status').notNull().default('active'),
  // Billing (kept in step with Stripe by api/services/billing/): the interval paid for, when the
  // period ends, whether it ends the plan, and until when a failed payment keeps access.
  billingInterval: text('billing_interval'),
  currentPeriodEnd: integer('current_period_end', { mode: 'timestamp_ms' }),
  cancelAtPeriodEnd: integer('cancel_at_period_end', { mode: 'boolean' }).notNull().default(false),
  billingGraceUntil: integer('billing_grace_until', { mode: 'timestamp_ms' }),
  /** When the Stripe read that last set the plan started: an older read never overwrites a fresher one. */
  billingReadAt: integer('billing_read_at', { mode: 'timestamp_ms' }),
  // Deleting the account closes it at once and erases it after the grace period (decision 0132):
  // sign-in is refused while closedAt is set; the purge job erases it after purgeAfter.
  closedAt: integer('closed_at', { mode: 'timestamp_ms' }),
  purgeAfter: integer('purge_after', { mode: 'timestamp_ms' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  // Webhooks find the user by their Stripe customer.
}, (t) => [index('users_stripe_customer_id_idx').on(t.stripeCustomerId)]);

export const sessions = sqliteTable(
  'sessions',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token: text('token').notNull().unique(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const accounts = sqliteTable(
  'accounts',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: integer('access_token_expires_at', { mode: 'timestamp_ms' }),
    refreshTokenExpiresAt: integer('refresh_token_expires_at', { mode: 'timestamp_ms' }),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('accounts_user_id_idx').on(t.userId)],
);

export const verifications = sqliteTable(
  'verifications',
  {
    id: id(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
);
