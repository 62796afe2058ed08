// The LocalRank API client: openapi-fetch over the types generated from the API's OpenAPI
// document (schema.ts), so every path, parameter, body and answer is checked by the compiler.
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths, webhooks } from './schema.js';

export type { components, operations, paths, webhooks };
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEvents, type WebhookEventType, type WebhookHeaders } from './webhooks.js';
/** The answer shapes by name: `Schemas['Report']`, `Schemas['BusinessPage']`… */
export type Schemas = components['schemas'];
/** An error answer (RFC 9457 problem details with LocalRank's `code`). */
export type Problem = components['schemas']['Problem'];

export interface LocalRankClientOptions {
  /** An API key from Account → API keys (`lr_live_…`). */
  apiKey: string;
  /** Where LocalRank runs, e.g. `https://app.localrank.app` (the client adds `/api/v1`). */
  baseUrl: string;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

export type LocalRankClient = Client<paths>;

/** A client whose every call sends the key as a bearer token. */
export function createLocalRankClient({ apiKey, baseUrl, fetch }: LocalRankClientOptions): LocalRankClient {
  const client = createFetchClient<paths>({ baseUrl: `${baseUrl.replace(/\/+$/, '')}/api/v1`, ...(fetch ? { fetch } : {}) });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${apiKey}`);
      return request;
    },
  };
  client.use(auth);
  return client;
}
