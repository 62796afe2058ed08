// The branding screen's limits and choices, without zod, so /branding does not download the
// API's schemas to draw its form (issue 47); common/schemas/branding.ts re-exports them.
export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** Only the ports mail is submitted on: any other would let "Send a test" knock on other
 *  services (decision 0210). */
export const MAIL_PORTS = [587, 465, 25, 2525] as const;
