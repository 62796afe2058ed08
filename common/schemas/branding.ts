// A branding profile (spec section 3, `branding_profiles`): the agency's name, colours, contact
// details and footer on every report it sends. Colours are #RRGGBB; the defaults are the spec's.
import { BRAND_COLOURS } from '../constants.ts';
import { z } from '../zod.ts';
import { isEmail, isWebsiteUrl, MESSAGES } from './report-request-rules.ts';

export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

const colour = (fallback: string) => z.string().trim().regex(HEX_COLOUR, 'Use a colour like #3B82F6').transform((v) => v.toUpperCase()).default(fallback);
const optionalText = (max: number) => z.string().trim().max(max).optional().transform((v) => (v ? v : null));

export const brandingProfileSchema = z.strictObject({
  companyName: z.string().trim().min(1, 'Required').min(2).max(120),
  primaryColor: colour(BRAND_COLOURS.primary),
  secondaryColor: colour(BRAND_COLOURS.secondary),
  accentColor: colour(BRAND_COLOURS.accent),
  contactEmail: z.string().trim().max(254).refine((v) => v === '' || isEmail(v), MESSAGES.email).optional().transform((v) => (v ? v.toLowerCase() : null)),
  contactPhone: optionalText(40),
  website: z.string().trim().max(2048).refine((v) => v === '' || isWebsiteUrl(v), MESSAGES.url).optional().transform((v) => (v ? v : null)),
  footerText: optionalText(300),
  isDefault: z.boolean().optional(),
  poweredBy: z.boolean().optional(),
});
export type BrandingProfileInput = z.output<typeof brandingProfileSchema>;

/** WCAG relative luminance of #RRGGBB. */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The readable text colour on a background: white or near-black, whichever contrasts more. */
export function textOn(background: string): '#FFFFFF' | '#111827' {
  return contrastRatio(background, '#FFFFFF') >= contrastRatio(background, '#111827') ? '#FFFFFF' : '#111827';
}

/** WCAG AA for normal text. Below it the screens warn, and text on the colour is picked by `textOn`. */
export const MIN_CONTRAST = 4.5;

/** The colour darkened, step by step, until text in it reads on white (MIN_CONTRAST): an agency's
 *  light brand colour still works for links and headings. */
export function inkOn(colour: string, background = '#FFFFFF'): string {
  let [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16)) as [number, number, number];
  const hex = () => `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
  for (let i = 0; i < 40 && contrastRatio(hex(), background) < MIN_CONTRAST; i++) [r, g, b] = [r * 0.9, g * 0.9, b * 0.9];
  return hex();
}

/** The branding preview: the form's unsaved values, the profile being edited (for its stored logo)
 *  and a newly chosen logo as a data URL (PNG, JPEG or WebP), re-encoded like an upload. */
export const brandingPreviewSchema = brandingProfileSchema.extend({
  profileId: z.string().max(64).optional(),
  logo: z
    .string()
    .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 64, `The logo must be at most ${LOGO_MAX_BYTES / 1024 / 1024} MB.`)
    .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/, 'The logo must be a PNG, JPEG or WebP image.')
    .optional(),
});
export type BrandingPreviewInput = z.output<typeof brandingPreviewSchema>;

/** Previews one user may ask for per minute (the form asks once its values rest for a moment). */
export const BRANDING_PREVIEW_PER_MINUTE = 30;
