// The keywords an owner chooses for the local visibility grid, as PUT
// /api/business/{id}/visibility-keywords validates them. An empty list goes back to the defaults
// (the category as people search it, then its services).
import { MAX_VISIBILITY_KEYWORDS } from '../visibility-bands.ts';
import { z } from '../zod.ts';
import { plainText } from './plain-text.ts';

export { MAX_VISIBILITY_KEYWORDS };

export const visibilityKeywordsSchema = z.object({
  keywords: z
    .array(
      z
        .string({ error: 'Each keyword must be text' })
        .trim()
        .min(2, 'Each keyword needs at least 2 characters')
        .max(60, 'Each keyword can be at most 60 characters')
        .refine((k) => !/[<>{}\\]/.test(k), 'Keywords are words people search for, without <, >, { } or \\')
        .check(plainText('A keyword')),
      { error: 'Send the keywords as a list' },
    )
    .max(MAX_VISIBILITY_KEYWORDS, `At most ${MAX_VISIBILITY_KEYWORDS} keywords`)
    .transform((list) => list.filter((k, i) => list.findIndex((x) => x.toLowerCase() === k.toLowerCase()) === i)),
});
export type VisibilityKeywordsInput = z.output<typeof visibilityKeywordsSchema>;
