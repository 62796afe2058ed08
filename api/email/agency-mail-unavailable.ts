// `agency-mail.unavailable`: tells an agency, through our own mail server, that its mail server has
// been away since a given moment and that its clients' reports wait for it: what we saw, that
// nothing is lost, and what to do (decision 0210). Once per outage: the job's key names the
// outage's start, and a job whose outage is over by the time it runs sends nothing.
import { eq } from 'drizzle-orm';
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import { users } from '../../db/schema/auth.ts';
import { agencyMailServers, consultants } from '../../db/schema/consultants.ts';
import type { AppContext } from '../context.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { mailerFor, messageIdFor, type MailMessage } from './mailer.ts';
import { escapeHtml } from '../../common/html.ts';

export const AGENCY_MAIL_UNAVAILABLE = 'agency-mail.unavailable';
export interface AgencyMailUnavailablePayload {
  consultantId: string;
  /** When the outage began (ISO). */
  since: string;
}

/** "27 Nov 2026, 10:02 UTC" */
export const utcMinute = (d: Date) => `${d.toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' })} UTC`;

/** The e-mail itself (also built by `npm run spam-scores`). */
export function agencyMailUnavailableEmail(ctx: AppContext, p: { consultantId: string; to: string; host: string; port: number; since: Date; lastError: string | null }): MailMessage {
  const page = `${ctx.env.PUBLIC_BASE_URL}/branding`;
  const subject = "Your mail server is not taking your clients' reports";
  const lines = [
    `Since ${utcMinute(p.since)} we have not been able to send your clients' reports through your mail server ${p.host}:${p.port}. ${p.lastError ?? ''}`.trim(),
    'Nothing is lost: each report waits for your server and goes out as soon as it answers. We keep trying for about two days, less and less often.',
    'Once your server is fixed, press "Send a test" under Sending e-mail in Branding Settings: when the test goes through, the waiting reports go out at once. Saving changed settings there sends them again too, and so does removing your mail server (they then leave from our address, under your name).',
  ];
  const footer = `${OPERATOR.legalName}, ${OPERATOR.postalAddress}`;
  return {
    messageId: messageIdFor(ctx, `agency-mail-unavailable-${p.consultantId}-${p.since.getTime()}`),
    from: ctx.env.MAIL_FROM,
    to: p.to,
    subject,
    text: [...lines.flatMap((l) => [l, '']), `Branding Settings: ${page}`, '', '-- ', `${PRODUCT_NAME} · ${footer}`].join('\n'),
    html: `<!doctype html><html lang="en"><body style="font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
<h1 style="font-size:20px">Your mail server is not taking your clients' reports</h1>
${lines.map((l) => `<p style="font-size:15px;color:#334155">${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(page)}">Open Branding Settings</a></p>
<p style="font-size:12px;color:#64748b">${escapeHtml(`${PRODUCT_NAME} · ${footer}`)}</p>
</body></html>`,
  };
}

export const agencyMailUnavailableJob: JobDefinition<AgencyMailUnavailablePayload> = {
  async run(ctx, job) {
    const { consultantId, since } = job.payload;
    const server = await ctx.db.query.agencyMailServers.findFirst({ where: eq(agencyMailServers.consultantId, consultantId) });
    // Over already (the server answered, or was changed or removed): nothing to say.
    if (!server?.unavailableSince || server.unavailableSince.getTime() !== Date.parse(since)) return;
    const consultant = await ctx.db.query.consultants.findFirst({ where: eq(consultants.id, consultantId) });
    const user = consultant && (await ctx.db.query.users.findFirst({ where: eq(users.id, consultant.userId) }));
    if (!user) return;
    await mailerFor(ctx).send(agencyMailUnavailableEmail(ctx, { consultantId, to: user.email, host: server.host, port: server.port, since: server.unavailableSince, lastError: server.lastError }));
  },
};
