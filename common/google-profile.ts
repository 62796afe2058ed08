// The connected Google Business Profile as the screens name it, without zod: the dashboard's
// island imports it (issue 48).
/** Where "Connect Google Business Profile" starts; from an agency's client page with its client,
 *  where the connection goes back to (checked against the agency, decision 0321). */
export const connectUrl = (businessId: string, clientId?: string | null) => `/connect/google?businessId=${encodeURIComponent(businessId)}${clientId ? `&clientId=${encodeURIComponent(clientId)}` : ''}`;
/** Where figures read from the connected profile say they come from. */
export const PROFILE_LABEL = 'from your Google Business Profile';

/** The Google Business Profile block of the dashboard answer (decision 0322): drawn with the page, so
 *  nothing moves when it arrives. `reviews` only while a profile is connected (or the sample one):
 *  every review not removed, the figures that replace the Places listing's for the business. */
export interface DashboardProfile {
  connectable: boolean;
  connection: { status: 'connected' | 'sample' | 'disconnected'; title: string } | null;
  reviews: {
    source: 'google_business_profile';
    label: string;
    count: number;
    average: number | null;
    /** Reviews written in the last 90 days, and in the 90 days before. */
    last90: number;
    previous90: number;
    newest: Array<{ id: string; rating: number; author: string | null; text: string | null; createdAt: string; answered: boolean }>;
  } | null;
  /** Calls, website clicks, direction requests and impressions per day, the last 90 days. */
  days: Array<{ day: string; calls: number; websiteClicks: number; directionRequests: number; impressions: number }>;
}
