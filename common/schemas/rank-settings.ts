// Whether a business's rank counts the competitors that are other locations of its brand
// (decision 0235), as PUT /api/business/{id}/rank-settings and the API's PUT
// /businesses/{businessId}/settings validate it.
import { z } from '../zod.ts';

export const rankSettingsSchema = z.strictObject({
  rankWithBranches: z.boolean({ error: 'rankWithBranches must be true or false' }),
});
export type RankSettingsInput = z.output<typeof rankSettingsSchema>;
