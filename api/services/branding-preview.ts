// The branding preview on /branding: the unsaved form's branding drawn by the production
// renderers over an example report (api/report/example-data.ts): the PDF's first page as a PNG,
// the score card, and the e-mail a client would get (sender, Reply-To, subject, HTML with its
// images inlined). Nothing is stored. Rendered in the render thread, so the event loop stays free.
import { BRANDING_PREVIEW_PER_MINUTE, type BrandingPreviewInput } from '../../common/schemas/branding.ts';
import type { AppContext } from '../context.ts';
import { reportEmail, scoreCardCid, senderFor } from '../email/report-email.ts';
import { whiteLabelFromFor } from './agency-mail.ts';
import type { Branding } from '../report/branding.ts';
import { exampleReportData } from '../report/example-data.ts';
import { reportLinks } from '../report/files.ts';
import type { Renderer } from '../report/render/renderer.ts';
import { ownedProfile, readLogo, reencodeLogo } from './branding-profiles.ts';
import type { ConsultantAccess } from './consultant-access.ts';
import { consumeRateLimits } from './rate-limit.ts';

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

export async function previewBranding({ ctx, access, input, renderer }: { ctx: AppContext; access: ConsultantAccess; input: BrandingPreviewInput; renderer: Renderer }) {
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
  const rendered = await renderer.render(data, reportLinks(ctx), branding, { firstPagePng: true });
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
