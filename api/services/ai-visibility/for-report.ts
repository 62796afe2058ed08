// What a report shows of AI answers (issue 50): each keyword's latest scan, the whole section on a
// paid plan and one line on a free report; nothing before the first scan.
import type { ReportAiAnswers } from '../../../common/ai-visibility.ts';
import type { AppContext } from '../../context.ts';
import { payerOf } from '../plans/payers.ts';
import { latestPerKeyword, listScans } from './store.ts';

export async function aiAnswersForReport(ctx: AppContext, businessId: string): Promise<ReportAiAnswers | null> {
  const scans = latestPerKeyword(await listScans(ctx, businessId, { limit: 20 }));
  if (!scans.length) return null;
  const { tier } = await payerOf(ctx, businessId);
  return { paid: tier !== 'free', scans };
}
