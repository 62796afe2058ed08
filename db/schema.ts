// The whole schema, for the drizzle client and drizzle-kit.
export * from './schema/auth.ts';
export * from './schema/businesses.ts';
export * from './schema/consultants.ts';
export * from './schema/reports.ts';
export * from './schema/operations.ts';
export * from './schema/billing.ts';
export * from './schema/data-rights.ts';
export * from './schema/files.ts';
export * from './schema/widget.ts';
export * from './schema/api.ts';
export * from './schema/google-profile.ts';
export * from './schema/ai-visibility.ts';
