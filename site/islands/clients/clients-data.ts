// What the client screens read from /api/clients and /api/branding-profiles, and how they word it.
import type { ReportFrequency } from '../../../common/schemas/clients.ts';

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
  nextReport: string | null;
}

export interface ClientReport {
  id: string;
  type: string;
  to: string | null;
  cc: string | null;
  createdAt: string;
  sentAt: string | null;
  openedAt: string | null;
  status: 'sending' | 'sent' | 'opened' | 'failed';
  link: string | null;
}

export interface ClientDetail {
  client: ClientSummary;
  reports: ClientReport[];
  alerts: Array<{ id: string; platform: string; rating: number; author: string | null; text: string | null; url: string | null; date: string | null }> | null;
  branding: { id: string; companyName: string; fromDefault: boolean } | null;
  access: { earlyWarning: boolean; whiteLabel: boolean };
}

export interface ProfileOption {
  id: string;
  companyName: string;
  isDefault: boolean;
}

export const FREQUENCY_LABELS: Record<ReportFrequency, string> = { monthly: 'Monthly (on the 1st)', weekly: 'Weekly (on Mondays)' };
export const STATUS_LABELS: Record<ClientReport['status'], string> = { sending: 'Sending', sent: 'Sent', opened: 'Opened', failed: 'Failed' };

export const fmtDay = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }) : '–';

export function fmtChange(change: number | null): string {
  if (change === null) return '–';
  return `${change > 0 ? '+' : change < 0 ? '−' : '±'}${Math.abs(change).toFixed(2)}`;
}

export const scoreText = (n: number | null | undefined) => (n === null || n === undefined ? 'Not enough data' : n.toFixed(2));
