import { ACCOUNT_ROLES, EMAIL_MAX_LENGTH, MIN_PASSWORD_LENGTH } from '../constants.ts';
import { z } from '../zod.ts';
import { plainText } from './plain-text.ts';

const email = z.string().trim().toLowerCase().max(EMAIL_MAX_LENGTH, 'Invalid email').pipe(z.email());
const COMPANY_REQUIRED = 'Company name is required for consultants';
const COMPANY_LABEL = 'Company name';

export const loginSchema = z.strictObject({
  email,
  password: z.string().min(1, 'Required').max(128),
});
export type LoginInput = z.infer<typeof loginSchema>;

// The spec's sign-up payload: email, password, role, companyName (consultants only).
export const signupSchema = z
  .strictObject({
    email,
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`)
      .max(128, 'Password must be at most 128 characters long'),
    role: z.enum(ACCOUNT_ROLES),
    companyName: z.string().trim().max(200).check(plainText(COMPANY_LABEL)).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.role === 'consultant' && !value.companyName) {
      ctx.addIssue({ code: 'custom', path: ['companyName'], message: COMPANY_REQUIRED });
    }
  })
  .transform((value) => ({ ...value, companyName: value.role === 'consultant' ? value.companyName : undefined }));
export type SignupInput = z.input<typeof signupSchema>;

// What the sign-up screen asks on top of the API payload: the password twice, and the audience
// rule (18 or older, Terms accepted). The server records the account; the screen gates it.
export const signupFormSchema = z
  .object({
    email: z.string().trim().min(1, 'Required').max(EMAIL_MAX_LENGTH, 'Invalid email').pipe(z.email()),
    password: z.string().min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`),
    confirmPassword: z.string(),
    role: z.enum(ACCOUNT_ROLES),
    companyName: z.string().trim().check(plainText(COMPANY_LABEL)),
    acceptTerms: z.literal(true, 'You must be 18 or older and accept the Terms of Service'),
  })
  .superRefine(
    (value, ctx) => {
      if (value.password !== value.confirmPassword) {
        ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Passwords do not match' });
      }
      if (value.role === 'consultant' && !String(value.companyName ?? '').trim()) {
        ctx.addIssue({ code: 'custom', path: ['companyName'], message: COMPANY_REQUIRED });
      }
    },
    // Run even when a field already failed (an unticked box aborts the object's checks
    // otherwise), so the form shows every message at once.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );

// Account security: what /login's "Forgot password?" and /account's Security section send.
const newPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`)
  .max(128, 'Password must be at most 128 characters long');

export const forgotPasswordSchema = z.strictObject({ email });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z.strictObject({ token: z.string().min(1, 'Required').max(200), newPassword });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export const changePasswordSchema = z.strictObject({ currentPassword: z.string().min(1, 'Required').max(128), newPassword });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const changeEmailSchema = z.strictObject({ newEmail: email });
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;

export const verifyEmailSchema = z.strictObject({ token: z.string().min(1, 'Required').max(2000) });
