// Branding profiles for agencies (api/services/branding/profiles.ts), their logo uploads (the raw
// image as the body, Content-Type image/png, image/jpeg or image/webp), the public logo files, and
// the agency's own mail server for its white-label e-mail (api/services/agency-mail/mail-server.ts).
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { brandingPreviewSchema, brandingProfileSchema, LOGO_MAX_BYTES, mailServerSchema, reportDomainSchema } from '../../common/schemas/branding.ts';
import type { AppContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { createProfile, deleteProfile, getProfile, listProfiles, ownedProfile, updateProfile } from '../services/branding/profiles.ts';
import { readLogo, removeLogo, setLogo } from '../services/branding/logos.ts';
import { renderLane } from '../report/render/render-lane.ts';
import { deleteMailServer, getMailServer, saveMailServer, testMailServer } from '../services/agency-mail/mail-server.ts';
import { previewBranding, previewLimit } from '../report/branding-preview.ts';
import { certificateAllowed } from '../services/report-domains/host.ts';
import { removeReportDomain, setReportDomain, verifyReportDomain } from '../services/report-domains/domains.ts';
import { requireConsultant } from '../services/plans/consultant-access.ts';

const NO_STORE = { 'Cache-Control': 'private, no-store' };
/** The preview's form values carry the unsaved logo as base64 (4/3 of its bytes) beside the fields. */
export const PREVIEW_MAX_BYTES = Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 16 * 1024;
export const BRANDING_PREVIEW_ROUTE = '/api/branding-profiles/preview';
export const LOGO_UPLOAD_ROUTE = /^\/api\/branding-profiles\/[^/]+\/logo$/;

export function brandingRoutes(ctx: AppContext) {
  const access = (c: { req: { raw: Request } }) => requireConsultant(ctx, c.req.raw.headers, 'whiteLabel');
  // The preview renders in the process's render lane, off the event loop, an agency at a time.
  const limit = previewLimit();
  return new Hono()
    .post(
      '/branding-profiles/preview',
      bodyLimit({
        maxSize: PREVIEW_MAX_BYTES,
        onError: () => {
          throw new AppError('payload_too_large', `The logo must be at most ${LOGO_MAX_BYTES / 1024 / 1024} MB.`);
        },
      }),
      async (c, next) => (await access(c), next()),
      validate('json', brandingPreviewSchema),
      async (c) => c.json(await previewBranding({ ctx, access: await access(c), input: c.req.valid('json'), renderer: renderLane(), limit }), 200, NO_STORE),
    )
    .get('/branding-profiles', async (c) => c.json({ profiles: await listProfiles(ctx, await access(c)) }, 200, NO_STORE))
    .post('/branding-profiles', async (c, next) => (await access(c), next()), validate('json', brandingProfileSchema), async (c) =>
      c.json(await createProfile(ctx, await access(c), c.req.valid('json')), 201, NO_STORE),
    )
    .get('/branding-profiles/:profileId', async (c) => c.json(await getProfile(ctx, await access(c), c.req.param('profileId')), 200, NO_STORE))
    .put('/branding-profiles/:profileId', async (c, next) => (await ownedProfile(ctx, await access(c), c.req.param('profileId')), next()), validate('json', brandingProfileSchema), async (c) =>
      c.json(await updateProfile(ctx, { access: await access(c), id: c.req.param('profileId'), input: c.req.valid('json') }), 200, NO_STORE),
    )
    .delete('/branding-profiles/:profileId', async (c) => c.json(await deleteProfile(ctx, await access(c), c.req.param('profileId')), 200, NO_STORE))
    .put(
      '/branding-profiles/:profileId/logo',
      bodyLimit({
        maxSize: LOGO_MAX_BYTES,
        onError: () => {
          throw new AppError('payload_too_large', `The logo must be at most ${LOGO_MAX_BYTES / 1024 / 1024} MB.`);
        },
      }),
      async (c) => {
        const who = await access(c);
        const contentType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        const body = Buffer.from(await c.req.arrayBuffer());
        return c.json(await setLogo(ctx, { access: who, id: c.req.param('profileId'), contentType, body }), 200, NO_STORE);
      },
    )
    .delete('/branding-profiles/:profileId/logo', async (c) => c.json(await removeLogo(ctx, await access(c), c.req.param('profileId')), 200, NO_STORE))
    // A profile's report domain (decision 0172): set it, verify its TXT record, remove it.
    .put('/branding-profiles/:profileId/domain', async (c, next) => (await ownedProfile(ctx, await access(c), c.req.param('profileId')), next()), validate('json', reportDomainSchema), async (c) =>
      c.json(await setReportDomain(ctx, { access: await access(c), profileId: c.req.param('profileId'), input: c.req.valid('json').domain }), 200, NO_STORE),
    )
    .post('/branding-profiles/:profileId/domain/verify', async (c) => c.json(await verifyReportDomain(ctx, await access(c), c.req.param('profileId')), 200, NO_STORE))
    .delete('/branding-profiles/:profileId/domain', async (c) => c.json(await removeReportDomain(ctx, await access(c), c.req.param('profileId')), 200, NO_STORE))
    // For a TLS proxy that issues certificates on demand (Caddy's `on_demand_tls ask`): 200 when the
    // host is ours or a verified report domain, 404 otherwise.
    .get('/tls/ask', async (c) => {
      if (!(await certificateAllowed(ctx, c.req.query('domain') ?? ''))) throw notFound('This host is not served here.');
      return c.json({ ok: true }, 200, { 'Cache-Control': 'no-store' });
    })
    .get('/branding/mail-server', async (c) => c.json(await getMailServer(ctx, await access(c)), 200, NO_STORE))
    .put('/branding/mail-server', async (c, next) => (await access(c), next()), validate('json', mailServerSchema), async (c) =>
      c.json(await saveMailServer(ctx, await access(c), c.req.valid('json')), 200, NO_STORE),
    )
    .delete('/branding/mail-server', async (c) => c.json(await deleteMailServer(ctx, await access(c)), 200, NO_STORE))
    .post('/branding/mail-server/test', async (c) => c.json(await testMailServer(ctx, await access(c)), 200, NO_STORE))
    .get('/branding/logos/:file', async (c) => {
      const png = await readLogo(ctx, c.req.param('file'));
      if (!png) throw notFound();
      // The name carries the content's hash: a new logo is a new name.
      return c.body(new Uint8Array(png), 200, { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=31536000, immutable', 'Cross-Origin-Resource-Policy': 'cross-origin' });
    });
}
