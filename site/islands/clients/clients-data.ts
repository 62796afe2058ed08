// What the client screens read from /api/clients and /api/branding-profiles, and how they word it.
import type { clientDetail } from '../../../api/services/client-reports.ts';
import type { ClientSummary } from '../../../api/services/clients.ts';
import type { ReportFrequency } from '../../../common/schemas/clients.ts';

// The shapes are the services' own: one definition, read here as types only.
export type { ClientSummary };
export type ClientDetail = Awaited<ReturnType<typeof clientDetail>>;
export type ClientReport = ClientDetail['reports'][number];

export interface ProfileOption {
  id: string;
  companyName: string;
  isDefault: boolean;
}

export const FREQUENCY_LABELS: Record<ReportFrequency, string> = { monthly: 'Monthly (on the 1st)', weekly: 'Weekly (on Mondays)' };
export const STATUS_LABELS: Record<ClientReport['status'], string> = { sending: 'Sending', waiting: 'Waiting', sent: 'Sent', opened: 'Opened', failed: 'Failed' };

export const fmtDay = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }) : '–';

/** "Nov 27, 2026, 10:02 UTC": a moment, where the hour matters (an outage). */
export const fmtMoment = (iso: string) =>
  `${new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' })} UTC`;

/** What the agency reads of a report that waits for its mail server or failed (decision 0210):
 *  "Waiting for your mail server since …" and what it did, or "Failed: …". */
export function mailProblemText(p: { status: string; since: string | null; problem: string | null }): string | null {
  if (p.status === 'waiting') return `Waiting for your mail server since ${p.since ? fmtMoment(p.since) : 'a moment ago'}${p.problem ? `. ${p.problem}` : '.'}`;
  if (p.status === 'failed') return `Failed: ${p.problem ?? 'the report could not be made. Send it again.'}`;
  return null;
}

/** A client's opt-out, as the client page and the portfolio word it. */
export const unsubscribedText = (name: string, at: string) => `${name} unsubscribed on ${fmtDay(at)}; reports paused.`;

export function fmtChange(change: number | null): string {
  if (change === null) return '–';
  return `${change > 0 ? '+' : change < 0 ? '−' : '±'}${Math.abs(change).toFixed(2)}`;
}

export const scoreText = (n: number | null | undefined) => (n === null || n === undefined ? 'Not enough data' : n.toFixed(2));
