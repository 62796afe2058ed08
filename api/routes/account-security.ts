import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { changeEmailSchema, changePasswordSchema, forgotPasswordSchema, resetPasswordSchema } from '../../common/schemas/auth.ts';
import type { AppContext } from '../context.ts';
import { unauthenticated } from '../errors.ts';
import { clientIp } from '../lib/client-info.ts';
import { clearSessionHint } from '../lib/session-hint.ts';
import { validate } from '../lib/validate.ts';
import { viewerOf } from '../services/accounts.ts';
import { changePassword, listSessions, requestEmailChange, requestPasswordReset, resendVerification, resetPassword, revokeOtherSessions } from '../services/account-security.ts';

export function accountSecurityRoutes(ctx: AppContext) {
  const signedInUserId = async (headers: Headers) => {
    const session = await ctx.auth.api.getSession({ headers });
    if (!session) throw unauthenticated();
    return session.user.id;
  };
  // Signed-in routes answer 401 before looking at the body.
  const requireSession = createMiddleware(async (c, next) => {
    await signedInUserId(c.req.raw.headers);
    await next();
  });
  return new Hono()
    .post('/auth/forgot-password', validate('json', forgotPasswordSchema), async (c) => {
      const result = await requestPasswordReset({ ctx, input: c.req.valid('json'), ip: clientIp(c, ctx.env.TRUST_PROXY) });
      return c.json({ ok: true, message: result.message });
    })
    .post('/auth/reset-password', validate('json', resetPasswordSchema), async (c) => {
      await resetPassword({ ctx, input: c.req.valid('json') });
      // Every session of the account ended, this browser's too: its hint goes with it.
      c.header('Set-Cookie', clearSessionHint(ctx.env));
      return c.json({ ok: true });
    })
    .post('/auth/change-password', requireSession, validate('json', changePasswordSchema), async (c) => {
      const result = await changePassword({ ctx, input: c.req.valid('json'), headers: c.req.raw.headers });
      const res = c.json({ ok: true });
      // better-auth issues this browser a new session (the others ended): forward its cookie.
      for (const cookie of result.headers.getSetCookie()) res.headers.append('Set-Cookie', cookie);
      return res;
    })
    .post('/auth/change-email', requireSession, validate('json', changeEmailSchema), async (c) => {
      const result = await requestEmailChange({ ctx, input: c.req.valid('json'), headers: c.req.raw.headers });
      return c.json({ ok: true, message: result.message }, 202);
    })
    .post('/auth/verification-email', async (c) => {
      const userId = await signedInUserId(c.req.raw.headers);
      await resendVerification({ ctx, userId, headers: c.req.raw.headers });
      return c.json({ ok: true }, 202);
    })
    .get('/auth/security', async (c) => {
      c.header('Cache-Control', 'no-store');
      const userId = await signedInUserId(c.req.raw.headers);
      const { user } = await viewerOf(ctx, userId);
      return c.json({ email: user.email, emailVerified: user.emailVerified, sessions: await listSessions({ ctx, headers: c.req.raw.headers }) });
    })
    .post('/auth/sessions/revoke-others', async (c) => {
      await signedInUserId(c.req.raw.headers);
      await revokeOtherSessions({ ctx, headers: c.req.raw.headers });
      return c.json({ ok: true });
    });
}
