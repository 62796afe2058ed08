// The alert threshold as PUT /api/business/{id}/alert-threshold validates it: a number from 1.0 to
// 5.0 in steps of 0.1 (spec section 9). Every way of getting it wrong has the spec's one message.
import { ALERT_THRESHOLD } from '../constants.ts';
import { z } from '../zod.ts';

export const THRESHOLD_MESSAGE = 'Threshold must be a number between 1.0 and 5.0';
export const THRESHOLD_TITLE = 'Invalid Threshold';

/** True for a number in range with at most one decimal (3.1, not 3.15). */
export function isThreshold(value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (value < ALERT_THRESHOLD.min || value > ALERT_THRESHOLD.max) return false;
  return Math.abs(value * 10 - Math.round(value * 10)) < 1e-6;
}

export const alertThresholdSchema = z.object({
  threshold: z.unknown().refine(isThreshold, THRESHOLD_MESSAGE).transform((v) => Math.round((v as number) * 10) / 10),
  // Sent by the spec's screen; accepted and ignored: it grants nothing.
  consultantId: z.unknown().optional(),
});
