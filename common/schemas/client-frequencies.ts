// How often a client's report goes out, without zod, so the client screens do not download the
// API's schemas for a list of two (issue 47); common/schemas/clients.ts re-exports it.
export const REPORT_FREQUENCIES = ['monthly', 'weekly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];
