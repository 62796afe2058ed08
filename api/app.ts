// The one Hono app, mounted at /api. Thin routes over services; one error shape.
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import type { AppContext } from './context.ts';
import { AppError } from './errors.ts';
import { errorText } from './log.ts';
import { noteStorageFault, noteStorageOk, storageError, storageFault } from './jobs/faults.ts';
import { health } from './services/health.ts';
import { errorAnswer, V1_PREFIX } from './lib/problem.ts';
import { webhookUrlRules, type WebhookFetchOptions } from './services/webhooks/delivery.ts';
import { sameOriginWrites } from './lib/same-origin.ts';
import { securityHeaders } from './lib/security-headers.ts';
import { verifiedDomain } from './services/report-domains/domains.ts';
import { NOT_JSON_MESSAGE } from './lib/validate.ts';
import { accountSecurityRoutes } from './routes/account-security.ts';
import { apiKeyRoutes } from './routes/api-keys.ts';
import { authRoutes } from './routes/auth.ts';
import { BRANDING_PREVIEW_ROUTE, brandingRoutes, LOGO_UPLOAD_ROUTE } from './routes/branding.ts';
import { clientRoutes } from './routes/clients.ts';
import { billingRoutes, STRIPE_WEBHOOK_ROUTE } from './routes/billing.ts';
import { dashboardRoutes } from './routes/dashboard.ts';
import { dataRightsRoutes } from './routes/data-rights.ts';
import { earlyWarningRoutes } from './routes/early-warning.ts';
import { googleProfileRoutes } from './routes/google-profile.ts';
import { contactRoutes } from './routes/contact.ts';
import { reportRequestRoutes } from './routes/report-requests.ts';
import { reportRoutes } from './routes/reports.ts';
import { sampleSiteRoutes } from './routes/sample-sites.ts';
import { WIDGET_PUBLIC_PREFIX, widgetRoutes } from './routes/widget.ts';
import { v1Routes } from './routes/v1/app.ts';

export const MAX_BODY_BYTES = 64 * 1024;

export interface AppOptions {
  /** Tests only: the addresses a webhook endpoint may be added with (their local receivers). */
  webhookUrls?: WebhookFetchOptions;
}

export function createApp(ctx: AppContext, options: AppOptions = {}) {
  const headers = securityHeaders(ctx.env, 'api');
  const app = new Hono().basePath('/api');

  app.use(requestId());
  app.use(async (c, next) => {
    await next();
    // A route may answer with a stricter policy of its own (the sample sites' sandbox).
    for (const [name, value] of Object.entries(headers)) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    c.res.headers.set('X-Request-Id', c.get('requestId'));
  });
  const jsonLimit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new AppError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024} KB.`);
    },
  });
  // Logo uploads and the branding preview carry an image, and Stripe's events can outgrow 64 KB (an
  // invoice with many lines): those routes set their own limits (routes/branding.ts, routes/billing.ts).
  const ownLimit = (method: string, path: string) =>
    (method === 'PUT' && LOGO_UPLOAD_ROUTE.test(path)) || (method === 'POST' && (path === STRIPE_WEBHOOK_ROUTE || path === BRANDING_PREVIEW_ROUTE));
  // A GET or HEAD has no body to limit, and asking for one builds the full web Request (an
  // AbortSignal, a WeakRef and a finaliser each, which only a full collection frees): on every
  // read that was 9 KB promoted to the old generation, and the GC pauses of the reads' p99.
  const bodiless = (method: string) => method === 'GET' || method === 'HEAD';
  app.use((c, next) => (bodiless(c.req.method) || ownLimit(c.req.method, c.req.path) ? next() : jsonLimit(c, next)));
  // Requests that never act on the session: the public API's keys, the widget's publishable keys
  // (called from other sites by design, never with credentials), Stripe's signed events.
  const notBySession = (path: string) => path.startsWith(V1_PREFIX) || path.startsWith(WIDGET_PUBLIC_PREFIX) || path === STRIPE_WEBHOOK_ROUTE;
  // An agency's verified report domain is ours too, for a request its own pages send to it.
  const ownProtocol = new URL(ctx.env.PUBLIC_BASE_URL).protocol;
  const reportDomainItself = async (origin: string, host: string | undefined) => {
    const url = URL.parse(origin);
    return !!url && url.protocol === ownProtocol && url.host === host?.toLowerCase() && (await verifiedDomain(ctx, url.hostname)) !== null;
  };
  app.use(sameOriginWrites(ctx.env.PUBLIC_BASE_URL, notBySession, reportDomainItself));
  // A change taken (2xx) after a storage fault: the storage is fine again, and health says so at
  // once rather than for the minute a fault is remembered (a worker's job said it only with one to run).
  app.use(async (c, next) => {
    await next();
    if (!bodiless(c.req.method) && c.res.status < 300) noteStorageOk(ctx);
  });

  app.get('/health', async (c) => c.json(await health(ctx)));
  app.route('/', authRoutes(ctx));
  app.route('/', accountSecurityRoutes(ctx));
  app.route('/', reportRequestRoutes(ctx));
  app.route('/', reportRoutes(ctx));
  app.route('/', sampleSiteRoutes(ctx));
  app.route('/', dashboardRoutes(ctx));
  app.route('/', earlyWarningRoutes(ctx));
  app.route('/', googleProfileRoutes(ctx));
  app.route('/', contactRoutes(ctx));
  app.route('/', clientRoutes(ctx));
  app.route('/', brandingRoutes(ctx));
  app.route('/', billingRoutes(ctx));
  app.route('/', dataRightsRoutes(ctx));
  app.route('/', widgetRoutes(ctx));
  // The addresses webhook endpoints may have: public ones (tests: their local receivers too).
  const webhookUrls = webhookUrlRules(ctx.env, options.webhookUrls);
  app.route('/', apiKeyRoutes(ctx, webhookUrls));
  app.route('/v1', v1Routes(ctx, webhookUrls));

  // The public API (/api/v1) answers errors as RFC 9457 problem details; the rest as { code, message, fields? }.
  const answer = (c: Context, error: AppError, status: ContentfulStatusCode = error.status) => {
    const { contentType, body } = errorAnswer(c.req.path, error, status, c.get('requestId'));
    return c.body(body, status, { 'Content-Type': contentType });
  };
  app.notFound((c) => answer(c, new AppError('not_found', 'Not found')));
  app.onError((error, c) => {
    // The route, not the path: a path can carry a report link's token.
    const route = `${c.req.method} ${c.req.routePath}`;
    if (error instanceof AppError) {
      if (error.retryAfterSeconds) c.header('Retry-After', String(error.retryAfterSeconds));
      // RFC 9110/6750: a 401 names the scheme to use (the public API's keys are bearer tokens).
      if (error.status === 401 && c.req.path.startsWith(V1_PREFIX)) c.header('WWW-Authenticate', 'Bearer realm="LocalRank API"');
      // The rest of a refused body is not read: the connection cannot carry another request, and
      // the client is told so rather than finding it closed under its next one.
      if (error.code === 'payload_too_large') c.header('Connection', 'close');
      if (error.status >= 500) ctx.log.error('request failed', { requestId: c.get('requestId'), route, error: error.message });
      return answer(c, error);
    }
    if (error instanceof HTTPException && error.status === 415) {
      // A JSON route sent another media type (the public API's validators): said as such.
      return answer(c, new AppError('unsupported_media_type', NOT_JSON_MESSAGE));
    }
    if (error instanceof HTTPException && error.status < 500) {
      // Hono's own 4xx (malformed JSON, wrong content type) in our shape.
      return answer(c, new AppError('invalid_input', error.message || 'Invalid request'), error.status);
    }
    // The disk full or the database locked: not the request's fault, nor a bug. The client is told
    // to come back (503, Retry-After); the log says so once a minute.
    const fault = storageFault(error);
    if (fault) {
      noteStorageFault(ctx, fault, route, error);
      const refused = storageError(fault);
      c.header('Retry-After', String(refused.retryAfterSeconds));
      return answer(c, refused);
    }
    ctx.log.error('unhandled error', { requestId: c.get('requestId'), route, error: errorText(error) });
    return answer(c, new AppError('internal', 'Something went wrong on our side. Please try again.'));
  });
  return app;
}

export type App = ReturnType<typeof createApp>;
