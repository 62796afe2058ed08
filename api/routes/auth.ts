import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { loginSchema, signupSchema } from '../../common/schemas/auth.ts';
import type { AppContext } from '../context.ts';
import { unauthenticated } from '../errors.ts';
import { clientIp } from '../lib/client-info.ts';
import { clearSessionHint, setSessionHint } from '../lib/session-hint.ts';
import { validate } from '../lib/validate.ts';
import { countSignupAttempt, getViewer, KNOWN_BROWSER_COOKIE, login, logout, signup } from '../services/accounts.ts';

function withCookies(res: Response, headers: Headers, hint: string): Response {
  for (const cookie of headers.getSetCookie()) res.headers.append('Set-Cookie', cookie);
  res.headers.append('Set-Cookie', hint);
  return res;
}

export function authRoutes(ctx: AppContext) {
  return new Hono()
    .get('/auth/me', async (c) => {
      const viewer = await getViewer({ ctx, headers: c.req.raw.headers });
      c.header('Cache-Control', 'no-store');
      if (!viewer) {
        // A hint without a session (expired, signed out elsewhere) is dropped here.
        const error = unauthenticated();
        c.header('Set-Cookie', clearSessionHint(ctx.env));
        return c.json({ code: error.code, message: error.message }, 401);
      }
      // Sessions slide (better-auth renews them); the hint slides with them.
      c.header('Set-Cookie', setSessionHint(ctx.env));
      return c.json(viewer);
    })
    .post('/auth/signup', validate('json', signupSchema), async (c) => {
      await countSignupAttempt({ ctx, ip: clientIp(c, ctx.env.TRUST_PROXY) });
      const result = await signup({ ctx, input: c.req.valid('json'), headers: c.req.raw.headers });
      return withCookies(c.json(result.viewer, 201), result.headers, setSessionHint(ctx.env));
    })
    .post('/auth/login', validate('json', loginSchema), async (c) => {
      const ip = clientIp(c, ctx.env.TRUST_PROXY);
      const knownBrowser = getCookie(c, KNOWN_BROWSER_COOKIE);
      const result = await login({ ctx, input: c.req.valid('json'), headers: c.req.raw.headers, ip, knownBrowser });
      return withCookies(c.json(result.viewer), result.headers, setSessionHint(ctx.env));
    })
    .post('/auth/logout', async (c) => {
      const result = await logout({ ctx, headers: c.req.raw.headers });
      return withCookies(c.json({ ok: true }), result.headers, clearSessionHint(ctx.env));
    });
}
