// What a white-label report shows instead of LocalRank's name and colours: an agency's branding
// profile as the renderers (PDF, score card, e-mail, online page) read it. None means ours.
export interface Branding {
  id: string;
  companyName: string;
  /** The re-encoded PNG, for the PDF and the score card; null without a logo. */
  logoPng: Buffer | null;
  /** Public address of the logo, for the e-mail and the online page. */
  logoUrl: string | null;
  primaryColor: string;
  secondaryColor: string;
  accentColor: string;
  contactEmail: string | null;
  contactPhone: string | null;
  website: string | null;
  footerText: string | null;
  /** "Powered by LocalRank" under the agency's name. */
  poweredBy: boolean;
}
