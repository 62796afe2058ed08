// A branding profile (spec section 3, `branding_profiles`): the agency's name, colours, contact
// details and footer on every report it sends. Colours are #RRGGBB; the defaults are the spec's.
import { BRAND_COLOURS } from '../constants.ts';
import { z } from '../zod.ts';
import { plainText } from './plain-text.ts';
import { isEmail, isWebsiteUrl, MESSAGES } from './report-request-rules.ts';
import { LOGO_MAX_BYTES, MAIL_PORTS } from './branding-limits.ts';

export { LOGO_MAX_BYTES, LOGO_TYPES, MAIL_PORTS } from './branding-limits.ts';

export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

const colour = (fallback: string) => z.string().trim().regex(HEX_COLOUR, 'Use a colour like #3B82F6').transform((v) => v.toUpperCase()).default(fallback);
/** Optional text of characters that show (decision 0211); `label` names the field in its message. */
const optionalText = (max: number, label: string) => z.string().trim().max(max).check(plainText(label)).optional().transform((v) => (v ? v : null));

export const brandingProfileSchema = z.strictObject({
  companyName: z.string().trim().min(1, 'Required').min(2).max(120).check(plainText('Company name')),
  primaryColor: colour(BRAND_COLOURS.primary),
  secondaryColor: colour(BRAND_COLOURS.secondary),
  accentColor: colour(BRAND_COLOURS.accent),
  contactEmail: z.string().trim().max(254).refine((v) => v === '' || isEmail(v), MESSAGES.email).optional().transform((v) => (v ? v.toLowerCase() : null)),
  contactPhone: optionalText(40, 'Contact phone'),
  website: z.string().trim().max(2048).refine((v) => v === '' || isWebsiteUrl(v), MESSAGES.url).check(plainText('Website')).optional().transform((v) => (v ? v : null)),
  footerText: optionalText(300, 'Footer text'),
  isDefault: z.boolean().optional(),
  poweredBy: z.boolean().optional(),
});
export type BrandingProfileInput = z.output<typeof brandingProfileSchema>;

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

/** An agency's own SMTP server for its white-label mail. The password, when left out of an
 *  update, stays as stored; an empty one removes it. Only the ports mail is submitted on: any other
 *  would let "Send a test" knock on other services (decision 0210). */
export const MAIL_SECURITY = ['tls', 'starttls', 'none'] as const;
export const MAIL_PORT_MESSAGE = 'Use port 587 (STARTTLS), 465 (TLS), 25 or 2525';
/** "Send a test" presses one agency may make per hour. */
export const MAIL_SERVER_TESTS_PER_HOUR = 10;
export const mailServerSchema = z.strictObject({
  host: z
    .string()
    .trim()
    .min(1, 'Required')
    .max(253)
    .regex(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/, 'Enter a host name like smtp.example.com'),
  port: z.coerce.number({ error: MAIL_PORT_MESSAGE }).refine((p) => (MAIL_PORTS as readonly number[]).includes(p), MAIL_PORT_MESSAGE),
  security: z.enum(MAIL_SECURITY, { error: 'Choose TLS, STARTTLS or none' }),
  username: optionalText(254, 'User name'),
  password: z.string().max(500).optional(),
  fromAddress: z.string().trim().max(254).refine(isEmail, MESSAGES.email).transform((v) => v.toLowerCase()),
});
export type MailServerInput = z.output<typeof mailServerSchema>;

/** A branding profile's report domain as typed; the service normalises and checks it (api/services/report-domains/domains.ts). */
export const reportDomainSchema = z.strictObject({
  domain: z.string().trim().min(1, 'Required').max(300),
});
