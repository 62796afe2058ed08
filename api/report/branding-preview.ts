// The branding preview on /branding: the unsaved form's branding drawn by the production
// renderers over an example report (api/report/example-data.ts): the PDF's first page as a PNG,
// the score card, and the e-mail a client would get (sender, Reply-To, subject, HTML with its
// images inlined). Nothing is stored. Rendered in the process's render lane (the report job's
// threads, in a lane of their own), one preview of an agency at a time and one waiting behind
// it: a newer preview replaces the waiting one, which is answered 429 (decision 0250).
import { BRANDING_PREVIEW_PER_MINUTE, type BrandingPreviewInput } from '../../common/schemas/branding.ts';
import type { AppContext } from '../context.ts';
import { reportEmail, scoreCardCid, senderFor } from '../email/report-email.ts';
import { whiteLabelFromFor } from '../services/agency-mail/mail-server.ts';
import type { Branding } from './model/branding.ts';
import { perKeyLimit, type PerKeyLimit } from '../lib/per-key-limit.ts';
import { exampleReportData } from './example-data.ts';
import { reportLinks } from './render/links.ts';
import type { Renderer } from './render/renderer.ts';
import { ownedProfile } from '../services/branding/profiles.ts';
import { readLogo, reencodeLogo } from '../services/branding/logos.ts';
import type { ConsultantAccess } from '../services/plans/consultant-access.ts';
import { consumeRateLimits } from '../services/rate-limit.ts';

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

async function logoOf(ctx: AppContext, access: ConsultantAccess, input: BrandingPreviewInput): Promise<Buffer | null> {
  // The profile being edited must be the caller's, logo or not.
  const row = input.profileId ? await ownedProfile(ctx, access, input.profileId) : null;
  if (input.logo) {
    const [, type, base64] = /^data:(image\/[a-z]+);base64,(.*)$/.exec(input.logo)!;
    return reencodeLogo(type!, Buffer.from(base64!, 'base64'));
  }
  if (!row) return null;
  const file = row.logoUrl?.slice(row.logoUrl.lastIndexOf('/') + 1);
  return file ? await readLogo(ctx, file) : null;
}

/** Previews of one agency rendering at once; one more waits, a newer one replacing it. */
export const PREVIEWS_PER_AGENCY = 1;
/** About one preview's render on a busy machine: when the replaced preview's client may ask again. */
export const PREVIEW_REPLACED_RETRY_SECONDS = 2;
export const previewLimit = (): PerKeyLimit =>
  perKeyLimit({ running: PREVIEWS_PER_AGENCY, retryAfterSeconds: PREVIEW_REPLACED_RETRY_SECONDS, message: 'A newer preview of your agency replaced this one before it was drawn.' });

export async function previewBranding({ ctx, access, input, renderer, limit }: { ctx: AppContext; access: ConsultantAccess; input: BrandingPreviewInput; renderer: Renderer; limit: PerKeyLimit }) {
  await consumeRateLimits({
    ctx,
    input: [{ key: `branding-preview:${access.user.id}`, limit: BRANDING_PREVIEW_PER_MINUTE, windowMs: 60_000, message: 'Too many previews at once. The preview resumes in a moment.' }],
  });
  const logoPng = await logoOf(ctx, access, input);
  const branding: Branding = {
    id: input.profileId ?? 'preview',
    companyName: input.companyName,
    logoPng,
    logoUrl: logoPng ? dataUrl(logoPng) : null,
    primaryColor: input.primaryColor,
    secondaryColor: input.secondaryColor,
    accentColor: input.accentColor,
    contactEmail: input.contactEmail,
    contactPhone: input.contactPhone,
    website: input.website,
    footerText: input.footerText,
    poweredBy: input.poweredBy ?? false,
  };
  const data = await exampleReportData(ctx);
  const rendered = await limit.run(access.consultant.id, () => renderer.render(data, reportLinks(ctx), branding, { firstPagePng: true, lane: 'preview' }));
  const now = new Date();
  const whiteLabelFrom = await whiteLabelFromFor(ctx, access.consultant.id);
  const mail = reportEmail(ctx, {
    to: 'client@example.com',
    fullName: 'Dana Example',
    data,
    token: 'preview',
    reportUrl: `${ctx.env.PUBLIC_BASE_URL}/report/preview`,
    expiresAt: new Date(now.getTime() + 30 * 24 * 60 * 60 * 1000),
    messageId: '<branding-preview@localhost>',
    scoreCard: rendered.png,
    pdf: rendered.pdf,
    kind: 'client',
    branding,
    replyTo: access.user.email,
    consultantName: access.consultant.companyName,
    whiteLabelFrom,
  });
  return {
    pdfPage: dataUrl(rendered.pagePng!),
    scoreCard: dataUrl(rendered.png),
    email: {
      from: senderFor(ctx, branding, whiteLabelFrom),
      replyTo: typeof mail.replyTo === 'string' ? mail.replyTo : null,
      subject: String(mail.subject),
      html: String(mail.html).replaceAll(`cid:${scoreCardCid(whiteLabelFrom)}`, dataUrl(rendered.png)),
    },
  };
}
