// When a consultant's client gets its report: once when it is added (`first`), then every month
// (on the first, like the owners' monthly reports) or every week (on the first tick of each ISO
// week, Monday UTC), and whenever the consultant presses "Send report now" or "Send a test to me".
// Each is one `client.report` job keyed by its period, so a tick or a click that comes twice
// queues once. Decision 0105.
import type { ReportFrequency } from '../../common/schemas/clients.ts';

export const CLIENT_REPORT = 'client.report';
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ClientReportPayload {
  clientId: string;
  /** first: on adding the client; scheduled: its monthly or weekly report; now / test: asked for. */
  kind: 'first' | 'scheduled' | 'now' | 'test';
  /** Monthly 'YYYY-MM', weekly 'YYYY-MM-DD' (the Monday), asked-for ones the minute they were asked. */
  period: string;
}

/** The report type of a client report's copy to its consultant: a message of its own (issue 37). */
export const COPY_TYPE = 'client-copy';

export const clientReportKey = (p: ClientReportPayload) => `${CLIENT_REPORT}:${p.kind}:${p.period}:client-${p.clientId}`;

/** Monday 00:00 UTC of the week `now` is in. */
export function weekStart(now: Date): Date {
  const day = (now.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - day * DAY_MS);
}

/** The period whose scheduled report is due at `now`, or null (monthly: only the first days). */
export function clientReportPeriod(frequency: ReportFrequency, now: Date, monthlyCatchUpDays: number): string | null {
  if (frequency === 'weekly') return weekStart(now).toISOString().slice(0, 10);
  return now.getUTCDate() <= monthlyCatchUpDays ? now.toISOString().slice(0, 7) : null;
}

/** When the next scheduled report goes out after `now`. */
export function nextClientReport(frequency: ReportFrequency, now: Date): Date {
  if (frequency === 'weekly') return new Date(weekStart(now).getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** The period of an asked-for report: the minute, so a double click queues one. */
export const askedPeriod = (now: Date) => now.toISOString().slice(0, 16);
