// The report e-mail: HTML and text parts, the score card inline (cid), the PDF attached, the
// signed link to the online report, one-click unsubscribe headers, the operator's postal address.
// White-label (an agency's branding): the agency's name as the sender's display name, its contact
// address as Reply-To, its logo, colours and footer in place of ours.
import { escapeHtml } from '../../common/html.ts';
import { COMPETITOR_COUNT, OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import type { AppContext } from '../context.ts';
import { termsUsed } from './report-terms.ts';
import { contactLine, onReportHost, POWERED_BY, sampleNote, themeOf, type Branding } from '../report/model/branding.ts';
import { websiteSentence } from '../report/words/website-state.ts';
import { bandColour, branchesText, comparedWithText, fmtDate, fmtScore, hasMarket, marketSize, noMarketText, notFoundText, NOT_RANKED, overallWeightsText, rankNo, rankOf, SAMPLE_DATA_LABEL, SCORE_KEYS, SCORE_LABELS, scoreText } from '../report/words/labels.ts';
import type { ReportData } from '../report/model/types.ts';
import { metricsText, NOT_MEASURED, RANK_BAND_ORDER, RANK_BANDS, VISIBILITY_TITLE, visibilityLine, visibilityView } from '../report/words/visibility.ts';
import { domainOf, type MailMessage } from './mailer.ts';

export const SCORE_CARD_CID = 'score-card@localrank';
/** The score card's Content-ID in white-label mail: on the sender's domain, naming nothing of ours. */
export const scoreCardCid = (whiteLabelFrom: string | null) => (whiteLabelFrom ? `score-card@${domainOf(whiteLabelFrom)}` : SCORE_CARD_CID);

export const unsubscribeApiUrl = (ctx: AppContext, token: string) => `${ctx.env.PUBLIC_BASE_URL}/api/unsubscribe?token=${encodeURIComponent(token)}`;
export const unsubscribePageUrl = (ctx: AppContext, token: string) => `${ctx.env.PUBLIC_BASE_URL}/unsubscribe?token=${encodeURIComponent(token)}`;

export interface ReportEmailInput {
  to: string;
  fullName: string;
  data: ReportData;
  token: string;
  reportUrl: string;
  expiresAt: Date;
  messageId: string;
  scoreCard: Buffer;
  pdf: Buffer;
  /** 'monthly': the paid plans' report of the month; 'client': a consultant's report to a client;
   *  default the free report. Each has its own wording. */
  kind?: 'free' | 'monthly' | 'client';
  /** An agency's branding (white-label), or none for ours. */
  branding?: Branding | null;
  /** Who a client's reply reaches when the branding has no contact address: the consultant. */
  replyTo?: string | null;
  /** A client report's sender when it is not white-label: the consultant's company. */
  consultantName?: string | null;
  /** The signed "Delete my data" link of a free report's request (api/services/data-rights/forget-link.ts). */
  deleteDataUrl?: string;
  /** White-label: the address the message leaves from (the agency's server's, or WHITE_LABEL_MAIL_FROM). */
  whiteLabelFrom?: string | null;
  /** A client report's copy to the consultant: the client it was sent to. The copy is its own
   *  message with its own unsubscribe, for the consultant's address alone. */
  copyOf?: { name: string; email: string } | null;
}

/** Letters without their accents, for a file name every mail client and disk accepts ("Łódź Café" → "lodz-cafe"). */
const ASCII_LETTERS: Record<string, string> = { ł: 'l', đ: 'd', ø: 'o', ß: 'ss', æ: 'ae', œ: 'oe', þ: 'th', ð: 'd', ı: 'i' };
export function fileSlug(name: string): string {
  const ascii = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łđøßæœþðı]/g, (c) => ASCII_LETTERS[c]!);
  return ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80).replace(/-$/, '') || 'business';
}

/** The PDF's file name; a report made from example figures says so in its name too. A white-label
 *  report's name does not name us. */
export const pdfFileName = (company: string, sampleData: boolean, whiteLabel = false) =>
  `${fileSlug(company)}-${whiteLabel ? '' : 'localrank-'}report${sampleData ? '-example-figures' : ''}.pdf`;

/** A display name for a From header: quoted, with what would break the quoting removed. */
const displayName = (name: string) => `"${name.replace(/["\\\r\n]/g, '').slice(0, 100)}"`;

/** The sender: the agency's name over the white-label address (its own server's, else the
 *  operator's neutral WHITE_LABEL_MAIL_FROM, else MAIL_FROM's address; api/services/agency-mail/mail-server.ts). */
/** The address white-label mail leaves from without an agency server: WHITE_LABEL_MAIL_FROM, else MAIL_FROM's. */
export function whiteLabelAddress(ctx: AppContext): string {
  return ctx.env.WHITE_LABEL_MAIL_FROM ?? /<([^>]+)>/.exec(ctx.env.MAIL_FROM)?.[1] ?? ctx.env.MAIL_FROM.trim();
}

export function senderFor(ctx: AppContext, branding: Branding | null | undefined, whiteLabelFrom?: string | null): string {
  if (!branding) return ctx.env.MAIL_FROM;
  return `${displayName(branding.companyName)} <${whiteLabelFrom ?? whiteLabelAddress(ctx)}>`;
}

/** RFC 8058 one-click unsubscribe: an HTTPS (or, in development, HTTP) URL mail clients POST
 *  `List-Unsubscribe=One-Click` to, and optionally a mailto (never on white-label mail). */
export function unsubscribeHeaders(url: string, mailto?: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>${mailto ? `, <mailto:${mailto}?subject=unsubscribe>` : ''}`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** How many data points this report measured on the business, stated per report: the promise
 *  on the landing page and in the FAQ is this count, never more. */
export function measuredText(data: ReportData): string {
  const points = data.business.dataPoints;
  const independent = points.filter((p) => p.status === 'measured' && !p.derived).length;
  return `This report measured ${independent} independent data points on your business, of the ${points.length} it checks.`;
}

/** What the analysis could not collect, in one sentence, or null when nothing is missing: the
 *  e-mail must not present a partial report as a whole one. */
export function dataGaps(data: ReportData): string | null {
  // Every point that could not be measured, scored or not: the count the report's tables show.
  const missing = data.business.dataPoints.filter((p) => p.status === 'unknown').length;
  const fewer = data.competitors.length < COMPETITOR_COUNT;
  if (missing === 0 && !fewer) return null;
  const parts = [
    ...(missing > 0 ? [`${missing} of the ${data.business.dataPoints.length} data points on your business`] : []),
    ...(fewer ? [`${data.competitors.length} of ${COMPETITOR_COUNT} competitors found`] : []),
  ];
  return `Some data could not be collected this time (${parts.join('; ')}). The report marks what is missing and says why under "Notes on the data".`;
}

/** The e-mail's local visibility block: the first keyword's grid as a table of coloured cells
 *  (the business's cell outlined) and the metrics; a line saying why when not measured. */
function visibilityHtml(data: ReportData): string {
  const view = visibilityView(data);
  if (!view) return '';
  const head = `<h2 style="font-size:17px;margin:12px 0 8px">${escapeHtml(VISIBILITY_TITLE)}${view.sampleData ? ` <span style="font-size:13px;color:#92400e">(${escapeHtml(SAMPLE_DATA_LABEL.toLowerCase())})</span>` : ''}</h2>`;
  if (!view.overall) return `<tr><td style="padding:8px 28px">${head}<p style="margin:0;color:#475569;font-size:14px">Share of Local Voice: ${NOT_MEASURED}. ${escapeHtml(view.reason ?? '')}</p></td></tr>`;
  const k = view.keywords[0]!;
  const rows = Array.from({ length: k.size }, (_, r) => `<tr>${k.cells.slice(r * k.size, (r + 1) * k.size).map((c) => `<td align="center" style="width:30px;height:30px;padding:0;background:${RANK_BANDS[c.band].fill};color:${RANK_BANDS[c.band].ink};font-size:12px;font-weight:700;border:${c.centre ? '3px solid #0f172a' : '1px solid #ffffff'}">${c.text}</td>`).join('')}</tr>`).join('');
  const alt = `Your rank for "${k.keyword}" at each of ${k.cells.length} points, north-west to south-east: ${k.cells.map((c) => c.text).join(', ')}; your business is the outlined centre cell.`;
  return `<tr><td style="padding:8px 28px">${head}
          <p style="margin:0 0 8px;color:#334155;font-size:15px"><strong>${escapeHtml(metricsText(view.overall))}</strong></p>
          <table role="img" aria-label="${escapeHtml(alt)}" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 8px">${rows}</table>
          <p style="margin:0;color:#64748b;font-size:12px">"${escapeHtml(k.keyword)}": your rank at each point (${RANK_BAND_ORDER.map((b) => RANK_BANDS[b].label.toLowerCase()).join(', ')}; "20+" = not in the top 20). ${escapeHtml(view.about)}</p>
        </td></tr>`;
}

export function firstName(fullName: string) {
  return fullName.trim().split(/\s+/)[0] || 'there';
}

export function reportEmail(ctx: AppContext, input: ReportEmailInput): MailMessage {
  const { data } = input;
  const b = data.business;
  const size = marketSize(data);
  // Without a market the subject ranks nothing: it says what there is (decision 0216).
  const ranks = !hasMarket(data) ? (data.competitors.length === 0 ? 'has no competitor nearby to rank against' : 'has too few competitors nearby to rank') : rankNo(b) ? `ranks ${rankOf(b, data)}` : 'is not ranked';
  const noMarket = noMarketText(data);
  const expires = fmtDate(input.expiresAt.toISOString());
  const monthly = input.kind === 'monthly';
  const branding = input.branding ?? null;
  // Every link of a profile with a verified report domain goes to that host (decision 0172).
  const link = (url: string) => onReportHost(ctx.env.PUBLIC_BASE_URL, branding, url);
  const unsubscribe = link(unsubscribePageUrl(ctx, input.token));
  const reportUrl = link(input.reportUrl);
  const deleteDataUrl = input.deleteDataUrl ? link(input.deleteDataUrl) : undefined;
  const logoUrl = branding?.logoUrl ? link(branding.logoUrl) : null;
  const whiteFrom = branding ? (input.whiteLabelFrom ?? whiteLabelAddress(ctx)) : null;
  const theme = themeOf(branding);
  const name = theme.name;
  // A client report is the consultant's: sent in their agency's name, or ours with theirs.
  const from = input.kind === 'client' ? (branding?.companyName ?? input.consultantName ?? PRODUCT_NAME) : name;
  const copyOf = input.kind === 'client' ? (input.copyOf ?? null) : null;
  const month = new Date(data.generatedAt).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const label = data.sampleData ? ` (${SAMPLE_DATA_LABEL.toLowerCase()})` : '';
  const subject = monthly
    ? `Your ${name} monthly report${label}, ${month}: ${b.place.name} ${ranks}`
    : copyOf
      ? `Copy of the report sent to ${copyOf.name}${label}: ${b.place.name} ${ranks}`
      : input.kind === 'client'
      ? `Your ${branding ? '' : `${PRODUCT_NAME} `}report from ${from}${label}: ${b.place.name} ${ranks}`
      : `Your ${name} report${label}: ${b.place.name} ${ranks}`;
  const intro = monthly
    ? `Your monthly ${name} report for ${b.place.name} is ready.`
    : copyOf
      ? `This is your copy of the report on ${b.place.name} sent to ${copyOf.name} (${copyOf.email}), as they received it.`
      : input.kind === 'client'
      ? `${from} has prepared your report for ${b.place.name}.`
      : `Your free ${name} report for ${b.place.name} is ready.`;
  const reason = monthly
    ? `You receive this e-mail because your ${name} plan includes monthly reports.`
    : copyOf
      ? `You receive this copy because you report to ${copyOf.name} on ${b.place.name}. Unsubscribing stops the copies to your address only; ${copyOf.name} keeps receiving the reports.`
      : input.kind === 'client'
      ? `You receive this e-mail because ${from} reports to you on ${b.place.name}.`
      : `You receive this e-mail because you requested a free report on ${name}.`;
  const topRecs = data.recommendations.slice(0, 3);
  // Our postal address, or the agency's footer (its address, as the profile asks) and contact line.
  const footerText = branding
    ? [branding.footerText, contactLine(branding), branding.poweredBy ? POWERED_BY : null].filter(Boolean).join('\n')
    : `${OPERATOR.legalName}, ${OPERATOR.postalAddress}`;
  const note = sampleNote(branding);
  const replyTo = branding ? (branding.contactEmail ?? input.replyTo ?? null) : (input.replyTo ?? null);
  const gaps = dataGaps(data);
  const notFound = notFoundText(data);
  // How the business's website was met, when not read in full (decision 0217).
  const site = websiteSentence(b);
  const weights = overallWeightsText(data);
  // The brand's other locations among the competitors, and whether the rank counts them (decision 0235).
  const brands = branchesText(data);
  const overall = b.scores.overall as number | null;
  const overallText = overall === null ? fmtScore(overall) : `${fmtScore(overall)} / 10`;

  const visibility = visibilityLine(data);
  const visibilityBlock = visibilityHtml(data);
  // The abbreviations and units this e-mail prints, explained (ARP, ATRP, "score per word", …).
  const terms = termsUsed([visibility, visibilityBlock, weights, gaps, site, notFound, noMarket, ...topRecs.flatMap((r) => [r.title, r.detail])].filter(Boolean).join('\n'));
  const text = [
    `Hi ${firstName(input.fullName)},`,
    '',
    intro,
    '',
    ...(data.sampleData ? [`${SAMPLE_DATA_LABEL.toUpperCase()}.`, note, ''] : []),
    ...(notFound ? [notFound, ''] : []),
    ...(noMarket ? [noMarket, ''] : []),
    ...(site ? [site, ''] : []),
    ...(gaps ? [gaps, ''] : []),
    measuredText(data),
    '',
    `Overall score: ${overallText}`,
    `Market rank: ${rankOf(b, data)} (${data.category}, within ${data.radiusMiles} miles)`,
    ...(brands ? [brands] : []),
    ...SCORE_KEYS.map((k) => `- ${SCORE_LABELS[k]}: ${scoreText(data, k, b.scores[k] as number | null)}`),
    ...(visibility ? ['', visibility] : []),
    weights,
    '',
    'Where to start:',
    ...topRecs.map((r, i) => `${i + 1}. ${r.title}: ${r.detail}`),
    '',
    ...(terms.length ? ['What the abbreviations mean:', ...terms.map((t) => `- ${t}`), ''] : []),
    `See the full report online (the link works until ${expires}):`,
    reportUrl,
    '',
    'The full report, with every data point, is attached as a PDF.',
    '',
    '-- ',
    reason,
    `Unsubscribe: ${unsubscribe}`,
    ...(deleteDataUrl ? [`Delete my data: ${deleteDataUrl}`] : []),
    footerText,
  ].join('\n');

  const row = (key: (typeof SCORE_KEYS)[number], score: number | null) => `
      <tr>
        <td style="padding:6px 0;font-size:15px;color:#334155">${escapeHtml(SCORE_LABELS[key])}</td>
        <td style="padding:6px 0;font-size:15px;font-weight:700;color:${bandColour(score)};text-align:right">${scoreText(data, key, score)}</td>
      </tr>`;

  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:Inter,'Segoe UI',Roboto,'Noto Sans',Helvetica,Arial,sans-serif;color:#0f172a">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:24px 12px">
    <tr><td align="center">
      <table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:12px;border:1px solid #e2e8f0${branding ? `;border-top:6px solid ${theme.brand}` : ''}">
        <tr><td style="padding:24px 28px 8px">
          <div style="font-size:18px;font-weight:700;color:${theme.secondaryInk}">${
            logoUrl
              ? `<img src="${escapeHtml(logoUrl)}" alt="" height="32" style="height:32px;width:auto;max-width:160px;vertical-align:middle;margin-right:10px">`
              : `<span style="display:inline-block;width:14px;height:14px;background:${theme.brand};border-radius:3px;margin-right:8px"></span>`
          }${escapeHtml(name)}</div>
        </td></tr>
        <tr><td style="padding:8px 28px">
          ${copyOf ? `<p style="margin:8px 0 12px;padding:10px 12px;background:#f8fafc;border:1px solid #e2e8f0;border-radius:8px;color:#334155;font-size:14px">${escapeHtml(intro)}</p>` : ''}
          <h1 style="font-size:22px;line-height:1.3;margin:8px 0 4px">Your report for ${escapeHtml(b.place.name)} is ready</h1>
          <p style="margin:0 0 16px;color:#475569;font-size:15px">Hi ${escapeHtml(firstName(input.fullName))}, ${hasMarket(data) ? `here is how you compare with the top ${data.competitors.length} ${escapeHtml(data.category.toLowerCase())} businesses within ${data.radiusMiles} miles.` : `here is your report (${escapeHtml(data.category.toLowerCase())}: ${escapeHtml(comparedWithText(data))}).`}</p>
          ${data.sampleData ? `<p style="margin:0 0 16px;padding:10px 12px;background:#fffbeb;border:1px solid #fcd34d;border-radius:8px;color:#92400e;font-size:14px"><strong>${escapeHtml(SAMPLE_DATA_LABEL)}.</strong> ${escapeHtml(note)}</p>` : ''}
          ${notFound ? `<p style="margin:0 0 16px;padding:10px 12px;background:#fff7ed;border:1px solid #fdba74;border-radius:8px;color:#9a3412;font-size:14px"><strong>${escapeHtml(notFound)}</strong></p>` : ''}
          ${noMarket ? `<p style="margin:0 0 16px;padding:10px 12px;background:#f8fafc;border:1px solid #e2e8f0;border-radius:8px;color:#334155;font-size:14px">${escapeHtml(noMarket)}</p>` : ''}
          ${site ? `<p style="margin:0 0 16px;padding:10px 12px;background:#f8fafc;border:1px solid #e2e8f0;border-radius:8px;color:#334155;font-size:14px">${escapeHtml(site)}</p>` : ''}
          ${gaps ? `<p style="margin:0 0 16px;padding:10px 12px;background:#f8fafc;border:1px solid #e2e8f0;border-radius:8px;color:#334155;font-size:14px">${escapeHtml(gaps)}</p>` : ''}
          <img src="cid:${scoreCardCid(whiteFrom)}" width="544" alt="${escapeHtml(`Overall score ${overallText}, ${rankNo(b, data) ? `rank ${b.rank} of ${size}` : hasMarket(data) ? NOT_RANKED.toLowerCase() : 'no market to rank in'}${data.sampleData ? `, ${SAMPLE_DATA_LABEL.toLowerCase()}` : ''}`)}" style="display:block;width:100%;max-width:544px;height:auto;border-radius:8px;border:1px solid #e2e8f0">
        </td></tr>
        <tr><td style="padding:8px 28px">
          <table role="presentation" width="100%" cellpadding="0" cellspacing="0">
            <tr><td style="padding:6px 0;font-size:15px;font-weight:700">Overall score</td><td style="padding:6px 0;font-size:15px;font-weight:700;text-align:right;color:${bandColour(overall)}">${escapeHtml(overallText)}</td></tr>
            <tr><td style="padding:6px 0;font-size:15px;font-weight:700">Market rank</td><td style="padding:6px 0;font-size:15px;font-weight:700;text-align:right">${rankOf(b, data)}</td></tr>${brands ? `
            <tr><td colspan="2" style="padding:0 0 6px;font-size:13px;color:#475569">${escapeHtml(brands)}</td></tr>` : ''}
            ${SCORE_KEYS.map((k) => row(k, b.scores[k] as number | null)).join('')}
          </table>
          <p style="margin:8px 0 0;color:#475569;font-size:13px">${escapeHtml(weights)} ${escapeHtml(measuredText(data))}</p>
        </td></tr>
        ${visibilityBlock}
        <tr><td style="padding:8px 28px">
          <h2 style="font-size:17px;margin:12px 0 8px">Where to start</h2>
          <ol style="margin:0;padding-left:20px;color:#334155;font-size:15px">
            ${topRecs.map((r) => `<li style="margin-bottom:8px"><strong style="color:#0f172a">${escapeHtml(r.title)}</strong><br>${escapeHtml(r.detail)}</li>`).join('')}
          </ol>
        </td></tr>
        ${terms.length ? `<tr><td style="padding:4px 28px 0">
          <h2 style="font-size:15px;margin:8px 0 4px">What the abbreviations mean</h2>
          <ul style="margin:0;padding-left:20px;color:#475569;font-size:13px;line-height:1.5">${terms.map((t) => `<li style="margin-bottom:4px">${escapeHtml(t)}</li>`).join('')}</ul>
        </td></tr>` : ''}
        <tr><td style="padding:16px 28px 8px" align="left">
          <a href="${escapeHtml(reportUrl)}" style="display:inline-block;background:${theme.brand};color:${theme.onBrand};text-decoration:none;font-weight:700;font-size:15px;padding:12px 22px;border-radius:8px">View your full report</a>
          <p style="margin:12px 0 0;color:#475569;font-size:13px">The link works until ${escapeHtml(expires)}. The full report, with every data point, is attached as a PDF.</p>
        </td></tr>
        <tr><td style="padding:20px 28px 24px;border-top:1px solid #e2e8f0;color:#64748b;font-size:12px;line-height:1.6">
          ${escapeHtml(reason)}
          <a href="${escapeHtml(unsubscribe)}" style="color:#64748b">Unsubscribe</a>${deleteDataUrl ? ` · <a href="${escapeHtml(deleteDataUrl)}" style="color:#64748b">Delete my data</a>` : ''}<br>
          ${footerText.split('\n').map(escapeHtml).join('<br>')}
        </td></tr>
      </table>
    </td></tr>
  </table>
</body></html>`;

  return {
    messageId: input.messageId,
    from: senderFor(ctx, branding, whiteFrom),
    ...(replyTo ? { replyTo } : {}),
    to: input.to,
    subject,
    text,
    html,
    // White-label: the HTTPS one-click alone (our support address would name us).
    headers: unsubscribeHeaders(link(unsubscribeApiUrl(ctx, input.token)), branding ? undefined : ctx.env.OPERATOR_EMAIL),
    attachments: [
      { filename: 'score-card.png', content: input.scoreCard, contentType: 'image/png', cid: scoreCardCid(whiteFrom), contentDisposition: 'inline' },
      { filename: pdfFileName(b.place.name, data.sampleData, Boolean(branding)), content: input.pdf, contentType: 'application/pdf' },
    ],
  };
}
