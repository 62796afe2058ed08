// POST /api/create-subscription's payload (spec section 7: planType; the interval comes from the
// pricing toggle). Strict: a tier, price or amount sent by the browser is refused, never read.
import { BILLING_INTERVALS, PAID_PLANS } from '../constants.ts';
import { z } from '../zod.ts';

export const PLAN_MESSAGE = 'Plan must be pro, enterprise or agency';

export const createSubscriptionSchema = z.strictObject({
  planType: z.enum(PAID_PLANS, { error: PLAN_MESSAGE }),
  interval: z.enum(BILLING_INTERVALS, { error: 'Interval must be monthly or annual' }).default('monthly'),
});

export type CreateSubscriptionInput = z.output<typeof createSubscriptionSchema>;
