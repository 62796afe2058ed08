// Webhook deliveries, typed and verified: each event's body as the API document describes it
// (`webhooks` in /api/v1/openapi.json), and a check of its Standard Webhooks signature with the
// endpoint's `whsec_` secret (HMAC-SHA256 over `id.timestamp.body`, Web Crypto: Node 18+, Deno,
// Bun, browsers and edge runtimes).
import type { webhooks } from './schema.js';

/** Each event type and its body: `WebhookEvents['report.completed']` is `{ type, timestamp, data }`. */
export type WebhookEvents = { [E in keyof webhooks]: webhooks[E]['post']['requestBody']['content']['application/json'] };
export type WebhookEventType = keyof WebhookEvents;
/** Any event's body; narrow it with `event.type`. */
export type WebhookEvent = WebhookEvents[WebhookEventType];

export interface WebhookHeaders {
  'webhook-id'?: string | null;
  'webhook-timestamp'?: string | null;
  'webhook-signature'?: string | null;
}

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

const encoder = new TextEncoder();

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function headerOf(headers: WebhookHeaders | Headers, name: keyof WebhookHeaders): string {
  const value = typeof (headers as Headers).get === 'function' ? (headers as Headers).get(name) : (headers as WebhookHeaders)[name];
  if (!value) throw new WebhookVerificationError(`Missing the ${name} header`);
  return value;
}

/**
 * The event, when `body` (the raw text, exactly as received) carries a valid signature by
 * `secret` made within `toleranceSeconds` of now; throws WebhookVerificationError otherwise.
 * During a secret rotation a delivery has two signatures: either secret verifies it.
 */
export async function verifyWebhook(secret: string, body: string, headers: WebhookHeaders | Headers, { toleranceSeconds = 300, now = new Date() }: { toleranceSeconds?: number; now?: Date } = {}): Promise<WebhookEvent> {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  const sent = Number(timestamp);
  if (!/^[0-9]+$/.test(timestamp) || Math.abs(now.getTime() / 1000 - sent) > toleranceSeconds) throw new WebhookVerificationError('The timestamp is too old or too new');
  const key = await crypto.subtle.importKey('raw', base64ToBytes(secret.replace(/^whsec_/, '')) as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = bytesToBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`))));
  const match = signatures.split(' ').some((s) => {
    const [version, signature] = s.split(',');
    if (version !== 'v1' || signature === undefined || signature.length !== expected.length) return false;
    let diff = 0;
    for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
    return diff === 0;
  });
  if (!match) throw new WebhookVerificationError('No signature matches');
  return JSON.parse(body) as WebhookEvent;
}
