// Your data (/account): deleting the account asks for the password and the account's e-mail typed out.
import { z } from '../zod.ts';

export const deleteAccountSchema = z.strictObject({
  password: z.string().min(1, 'Enter your password').max(128),
  confirmEmail: z.string().trim().min(1, 'Type your e-mail address to confirm').max(254),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
