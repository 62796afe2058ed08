// A business's AI-answers scans as the API and the dashboard's section read them (decision 0300).
import type { AiScan } from '../../../common/ai-visibility.ts';
import type { AppContext } from '../../context.ts';
import { businessJsonForUser } from '../dashboard.ts';
import { aiScanWaiting } from './job.ts';
import { listScans } from './store.ts';

export const AI_HISTORY_LIMIT = 100;

export interface AiVisibility {
  businessId: string;
  /** When a scan waiting for the AI budget starts again; null when none waits. */
  waitingUntil: string | null;
  /** Newest first; the engines' dollars left out (the operator's figure, in the ledger). */
  scans: Array<Omit<AiScan, 'cost'>>;
}

/** The scans of a business the caller has been checked against. */
export async function aiVisibilityOf(ctx: AppContext, businessId: string): Promise<AiVisibility> {
  const [scans, waiting] = await Promise.all([listScans(ctx, businessId, { limit: AI_HISTORY_LIMIT }), aiScanWaiting(ctx, businessId)]);
  return { businessId, waitingUntil: waiting?.toISOString() ?? null, scans: scans.map(({ cost: _cost, ...s }) => s) };
}

/** For an API key's owner: 404 for a business the owner may not see. */
export async function aiVisibilityFor(ctx: AppContext, { userId, businessId }: { userId: string; businessId: string }): Promise<AiVisibility> {
  await businessJsonForUser({ ctx, userId, businessId });
  return aiVisibilityOf(ctx, businessId);
}
