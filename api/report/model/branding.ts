// What a white-label report shows instead of LocalRank's name and colours: an agency's branding
// profile as the renderers (PDF, score card, e-mail, online page) read it. None means ours.
import { BRAND_COLOURS, PRODUCT_NAME, SAMPLE_DATA_NOTE } from '../../../common/constants.ts';
import { inkOn, MIN_GRAPHIC_CONTRAST, textOn, tintFor } from '../../../common/colour.ts';

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
  /** The origin of the profile's verified report domain (decision 0172), or null: links use PUBLIC_BASE_URL. */
  linkBase?: string | null;
}

/** A product link (an absolute URL under `publicBase`) moved onto the branding's report domain, when it has one. */
export function onReportHost(publicBase: string, branding: Branding | null | undefined, url: string): string {
  return branding?.linkBase && url.startsWith(`${publicBase}/`) ? `${branding.linkBase}${url.slice(publicBase.length)}` : url;
}

export const POWERED_BY = `Powered by ${PRODUCT_NAME}`;

/** The quietest text the report surfaces put on a tinted row (slate-500). */
export const MUTED_INK = '#64748B';

/**
 * The one palette every renderer draws with (PDF, score card, e-mail, online page, charts): the
 * agency's colours, or ours without a branding, made safe on white. A colour too pale to see is
 * darkened until it does (3:1 for shapes: chart lines, legend keys, bullets, buttons; 4.5:1 where
 * it is text); text on it is white or near-black, whichever reads; the "you" row's tint keeps its
 * muted text readable. `paletteChanges` says what moved, for /branding's warning.
 */
export function themeOf(branding: Branding | null) {
  const chosen = branding?.primaryColor ?? BRAND_COLOURS.primary;
  const brand = inkOn(chosen, '#FFFFFF', MIN_GRAPHIC_CONTRAST);
  const secondary = branding?.secondaryColor ?? BRAND_COLOURS.secondary;
  return {
    /** The name at the top of every surface. */
    name: branding?.companyName ?? PRODUCT_NAME,
    /** The brand colour for shapes on white (at least 3:1 against it). */
    brand,
    /** Text on the brand colour (buttons, numbered circles). */
    onBrand: textOn(brand),
    /** The brand colour as text on white: darkened until it reads. */
    brandInk: inkOn(chosen),
    /** The "you" row's background: a tint on which MUTED_INK still reads. */
    brandSoft: tintFor(chosen, MUTED_INK),
    /** A band of colour behind text (the masthead, the PDF's header): as chosen, with textOn over it. */
    secondary,
    secondaryInk: inkOn(secondary),
    accent: inkOn(branding?.accentColor ?? BRAND_COLOURS.accent, '#FFFFFF', MIN_GRAPHIC_CONTRAST),
  };
}

/** What the palette does to an agency's colours, in words (empty when nothing changes). */
export function paletteChanges(colours: { primaryColor: string; accentColor: string }): string[] {
  const changes: string[] = [];
  const shape = (label: string, colour: string) => {
    const safe = inkOn(colour, '#FFFFFF', MIN_GRAPHIC_CONTRAST);
    if (safe !== colour.toUpperCase()) changes.push(`${label} ${colour.toUpperCase()} is too pale to see on white: charts, legends, bullets and buttons use the darker ${safe} instead.`);
  };
  shape('Primary colour', colours.primaryColor);
  const ink = inkOn(colours.primaryColor);
  if (ink !== colours.primaryColor.toUpperCase()) changes.push(`Headings and links in the primary colour are drawn in ${ink}, dark enough to read as text.`);
  shape('Accent colour', colours.accentColor);
  return changes;
}

/** The sample-data note in words that do not name us on a white-label report (the label itself,
 *  "Example figures, not your real listings", stays on every surface: honesty beats white-label). */
export const sampleNote = (branding: Branding | null) =>
  branding ? 'These are example figures made up to show how this report works, not your real listings, reviews or competitors.' : SAMPLE_DATA_NOTE;

/** The agency's contact details in one line ("hello@… · (512) … · https://…"). */
export const contactLine = (branding: Branding) => [branding.contactEmail, branding.contactPhone, branding.website].filter(Boolean).join(' · ');

/** Width and height of a PNG, from its IHDR chunk. */
export function pngSize(png: Buffer | Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
