// The Early Warning Monitor's answer and the spec's error matching (section 8), as pure functions.
import { EARLY_WARNING_PLAN_MESSAGE as PLAN_MESSAGE } from '../../../common/plan-messages.ts';
import { ApiError } from '../../lib/api.ts';

export interface AlertRow {
  id: string;
  platform: string;
  reviewRating: number;
  reviewAuthor: string | null;
  reviewText: string | null;
  reviewUrl: string | null;
  reviewDate: number | null;
  createdAt: number;
}

export interface ReviewAlertsResponse {
  business: { id: string; companyName: string; city: string; state: string; sampleData?: boolean };
  threshold: number;
  alertWindowDays?: number;
  stats: { total: number; last30Days: number; averageRating: number | null; lowestRating?: number | null };
  alerts: AlertRow[];
  /** Share of Local Voice: the latest measured, and its falls of `dropPoints` or more from the
   *  scan a week or more before, in the last alertWindowDays, newest first. */
  visibility?: { dropPoints: number; latest: { solv: number; at: number } | null; drops: VisibilityDrop[] };
}

export interface VisibilityDrop {
  solv: number;
  previousSolv: number;
  at: number;
  previousAt: number;
}

export const fmtShare = (n: number) => `${n.toFixed(2)}%`;

export { PLAN_MESSAGE };
export const FETCH_FALLBACK = 'Failed to fetch alerts';

export type LoadError = { kind: 'login' } | { kind: 'not-found' } | { kind: 'denied'; message: string };

/** Signed out: Login Required, as on the dashboard. Then the spec's rule: a message containing
 *  'not found' or a 404 is Business Not Found; anything else Access Denied with the server's message. */
export function loadErrorOf(error: unknown): LoadError {
  if (error instanceof ApiError) {
    if (error.status === 401) return { kind: 'login' };
    const message = error.details.message ?? '';
    if (error.status === 404 || /not found/i.test(message)) return { kind: 'not-found' };
    if (error.status === 403) return { kind: 'denied', message: message || PLAN_MESSAGE };
    return { kind: 'denied', message: message || FETCH_FALLBACK };
  }
  return { kind: 'denied', message: FETCH_FALLBACK };
}

const PLATFORMS: Record<string, string> = { google: 'Google', yelp: 'Yelp', facebook: 'Facebook', other: 'Other', google_business_profile: 'Google, from your Google Business Profile' };
export const platformLabel = (p: string) => PLATFORMS[p] ?? PLATFORMS.other!;

export const fmtRating = (n: number | null | undefined) => (typeof n === 'number' ? n.toFixed(1) : '–');

/** A review link worth showing: http(s) only, never a script URL from a provider's data. */
export const reviewLink = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null);
