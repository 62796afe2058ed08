import { Hono } from 'hono';
import { loginSchema, signupSchema } from '../../common/schemas/auth.ts';
import type { AppContext } from '../context.ts';
import { unauthenticated } from '../errors.ts';
import { clientIp } from '../lib/client-info.ts';
import { validate } from '../lib/validate.ts';
import { getViewer, login, logout, signup } from '../services/accounts.ts';

function withCookies(res: Response, headers: Headers): Response {
  for (const cookie of headers.getSetCookie()) res.headers.append('Set-Cookie', cookie);
  return res;
}

export function authRoutes(ctx: AppContext) {
  return new Hono()
    .get('/auth/me', async (c) => {
      const viewer = await getViewer({ ctx, headers: c.req.raw.headers });
      if (!viewer) throw unauthenticated();
      c.header('Cache-Control', 'no-store');
      return c.json(viewer);
    })
    .post('/auth/signup', validate('json', signupSchema), async (c) => {
      const result = await signup({ ctx, input: c.req.valid('json'), headers: c.req.raw.headers });
      return withCookies(c.json(result.viewer, 201), result.headers);
    })
    .post('/auth/login', validate('json', loginSchema), async (c) => {
      const ip = clientIp(c, ctx.env.TRUST_PROXY);
      const result = await login({ ctx, input: c.req.valid('json'), headers: c.req.raw.headers, ip });
      return withCookies(c.json(result.viewer), result.headers);
    })
    .post('/auth/logout', async (c) => {
      const result = await logout({ ctx, headers: c.req.raw.headers });
      return withCookies(c.json({ ok: true }), result.headers);
    });
}
