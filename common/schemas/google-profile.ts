// An answer to a Google review, as PUT …/reply validates it (the screen and API v1): Google takes
// up to 4096 bytes of text; blank is refused (DELETE removes an answer).
import { z } from '../zod.ts';

export const REPLY_MAX_BYTES = 4096;
export const REPLY_REQUIRED = 'Write an answer (to remove one, delete it)';
export const REPLY_TOO_LONG = `Google takes answers of up to ${REPLY_MAX_BYTES} bytes`;

export const replyTextSchema = z
  .string({ error: REPLY_REQUIRED })
  .trim()
  .min(1, REPLY_REQUIRED)
  .refine((v) => new TextEncoder().encode(v).length <= REPLY_MAX_BYTES, REPLY_TOO_LONG);

export const reviewReplySchema = z.object({ text: replyTextSchema });

/** A review read from the connected profile, as the screen and the session routes carry it. */
export interface ProfileReview {
  id: string;
  rating: number;
  author: string | null;
  text: string | null;
  createdAt: string;
  updatedAt: string;
  reply: { text: string; updatedAt: string | null } | null;
  replyError: string | null;
  removed: boolean;
}

