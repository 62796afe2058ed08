// Whether a business's rank counts the competitors that are other locations of its brand
// (decision 0235), as PUT /api/business/{id}/rank-settings and the API's PUT
// /businesses/{businessId}/settings validate it.
import { z } from '../zod.ts';

export const rankSettingsSchema = z.strictObject({
  rankWithBranches: z
    .boolean({ error: 'rankWithBranches must be true or false' })
    .describe('true: the rank counts the competitors that are other locations of the business\'s brand; false (the default): they stay listed, marked as its brand, without a rank.'),
});
export type RankSettingsInput = z.output<typeof rankSettingsSchema>;
