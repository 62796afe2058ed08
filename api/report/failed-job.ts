// The `report.failed` job: the e-mail a visitor gets when their free report could not be made
// (report.generate gave up). The form promised a report, so silence would leave them waiting.
// Enqueued with a key per request, so it goes out once. Who it is from follows the report's own
// rule (`reportSender`, decision 0170) and leaves by the report's own route (an agency's server
// when it has one); the message is built by api/email/report-failed.ts.
import { eq } from 'drizzle-orm';
import { reportRequests } from '../../db/schema/businesses.ts';
import { widgetLeads } from '../../db/schema/widget.ts';
import type { AppContext } from '../context.ts';
import { mailerFor } from '../email/mailer.ts';
import { type FailedRequest, reportFailedEmail } from '../email/report-failed.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { agencyMailer } from '../services/agency-mail/mail-server.ts';
import { reportSender } from '../services/branding/sender.ts';

/** The `report.failed` payload: the request, and for an agency's lead or client whose report it was. */
export interface ReportFailedPayload {
  requestId: string;
  consultantId?: string | null;
  brandingProfileId?: string | null;
}

/** Whose request it was: the payload's agency, else (a job queued before it carried one) the
 *  widget lead the request was made for. */
async function agencyOf(ctx: AppContext, payload: ReportFailedPayload) {
  if (payload.consultantId) return { consultantId: payload.consultantId, brandingProfileId: payload.brandingProfileId ?? null };
  const lead = await ctx.db.query.widgetLeads.findFirst({ columns: { consultantId: true, brandingProfileId: true }, where: eq(widgetLeads.requestId, payload.requestId) });
  return { consultantId: lead?.consultantId ?? null, brandingProfileId: lead?.brandingProfileId ?? null };
}

export const reportFailedJob: JobDefinition<ReportFailedPayload> = {
  // An agency's message may leave through the agency's own server: the customer lane (decision 0210).
  customerServer: { payloadField: 'consultantId' },
  async run(ctx, job) {
    const requestId = job.payload?.requestId;
    if (typeof requestId !== 'string') throw new PermanentJobError('payload needs requestId');
    const request = await ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, requestId) });
    if (!request) throw new PermanentJobError(`report request ${requestId} not found`);
    if (request.status === 'sent') return; // an operator's retry made the report after all
    const details = request.payload as Omit<FailedRequest, 'id' | 'email'>;
    // The report e-mail's own identity rule and mail route (api/report/deliver.ts).
    const { branding, consultant } = await reportSender(ctx, await agencyOf(ctx, job.payload));
    const agency = branding && consultant ? await agencyMailer(ctx, consultant.id) : null;
    const message = reportFailedEmail(ctx, { ...details, id: request.id, email: request.email }, { branding, consultant, whiteLabelFrom: agency?.fromAddress ?? null });
    try {
      await (agency?.mailer ?? mailerFor(ctx)).send(message);
    } finally {
      agency?.mailer.close();
    }
  },
};
