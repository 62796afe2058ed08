// A local HTTP double of the Stripe API: the calls this product makes (customers, products,
// prices, subscriptions, invoices, invoice payments, refunds, webhook endpoints, the customer
// portal) and the one Stripe.js makes (confirming a PaymentIntent), answering in Stripe's shapes
// (objects copied from Stripe's fixtures, typed with the `stripe` package). It also does what
// Stripe does on its own (renewals, failed charges, retries, the end of a period) when a test
// asks, and sends signed webhook events, as Stripe does, to whoever the test says.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Stripe from 'stripe';
import * as fx from './fixtures.ts';

export const DECLINED_CARD = '4000000000000002';
export const GOOD_CARD = '4242424242424242';

type Params = Record<string, unknown>;
type Deliver = (payload: string, signature: string) => Promise<void>;

const DAY = 24 * 60 * 60;
const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const clone = <T>(value: T): T => structuredClone(value);

/** Stripe's form encoding (`items[0][price]=…`) into nested objects and arrays. */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (!v || typeof v !== 'object') return v;
    const entries = Object.entries(v as Params).map(([k, x]) => [k, arrays(x)] as const);
    return entries.length && entries.every(([k]) => /^\d+$/.test(k)) ? entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, x]) => x) : Object.fromEntries(entries);
  };
  return arrays(root) as Params;
}

class StripeError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    super(String(body.message));
    this.status = status;
    this.body = body;
  }
}
const missing = (kind: string, id: string) => new StripeError(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such ${kind}: '${id}'` });

export interface StripeDoubleOptions {
  /** Where signed events go (the product's webhook, in-process or over HTTP); none: kept in `events`. */
  deliver?: Deliver;
}

export class StripeDouble {
  readonly secretKey = `sk_test_double${randomBytes(8).toString('hex')}`;
  readonly publishableKey = `pk_test_double${randomBytes(8).toString('hex')}`;
  readonly webhookSecret = `whsec_double${randomBytes(12).toString('hex')}`;
  url = '';
  /** Stripe's clock, in seconds; tests move it forward. */
  now = Math.floor(Date.now() / 1000);
  deliver?: Deliver;
  readonly customers = new Map<string, Stripe.Customer>();
  readonly products = new Map<string, Stripe.Product>();
  readonly prices = new Map<string, Stripe.Price>();
  readonly subscriptions = new Map<string, Stripe.Subscription>();
  readonly invoices = new Map<string, Stripe.Invoice>();
  readonly invoicePayments = new Map<string, Stripe.InvoicePayment>();
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly refunds = new Map<string, Stripe.Refund>();
  readonly webhookEndpoints = new Map<string, Stripe.WebhookEndpoint>();
  readonly portalConfigurations = new Map<string, Stripe.BillingPortal.Configuration>();
  readonly portalSessions = new Map<string, Stripe.BillingPortal.Session>();
  /** The card each customer paid with last (renewals charge it). */
  readonly cards = new Map<string, string>();
  readonly events: Stripe.Event[] = [];
  readonly requests: Array<{ method: string; path: string; idempotencyKey?: string; params: Params }> = [];
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  /** Awaited after a request's answer is made and before it is sent (a slow network, for races). */
  beforeAnswer?: (method: string, path: string) => Promise<void>;
  /** Asked before a request is routed: a status and error body to answer instead (an outage, a 500). */
  failWith?: (method: string, path: string) => { status: number; error: Record<string, unknown> } | undefined;
  private readonly inFlight = new Set<string>();
  private server?: Server;
  private readonly signer = new Stripe('sk_test_signer');

  constructor(options: StripeDoubleOptions = {}) {
    this.deliver = options.deliver;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The settings that point the product at this double. */
  env(): Record<string, string> {
    return { STRIPE_SECRET_KEY: this.secretKey, STRIPE_PUBLISHABLE_KEY: this.publishableKey, STRIPE_WEBHOOK_SECRET: this.webhookSecret, STRIPE_API_URL: this.url };
  }

  /** Stripe keeps an idempotency key 24 hours: after that a same-key request is a new one. */
  forgetIdempotencyKeys() {
    this.idempotent.clear();
  }

  // ---- events ----

  /** A signed delivery of an event as Stripe sends it (`timestamp` in seconds, for stale ones). */
  sign(payload: string, timestamp = Math.floor(Date.now() / 1000), secret = this.webhookSecret): string {
    return this.signer.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  }

  private async emit(type: string, object: { id: string }): Promise<Stripe.Event> {
    const event = {
      id: rid('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: this.now,
      data: { object: clone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    } as unknown as Stripe.Event;
    this.events.push(event);
    if (this.deliver) {
      const payload = JSON.stringify(event);
      await this.deliver(payload, this.sign(payload));
    }
    return event;
  }

  // ---- what Stripe does on its own ----

  private period(price: Stripe.Price, from: number) {
    const interval = price.recurring?.interval;
    return from + (interval === 'year' ? 365 : 30) * DAY;
  }

  private newInvoice(sub: Stripe.Subscription, reason: Stripe.Invoice.BillingReason): Stripe.Invoice {
    const price = sub.items.data[0]!.price;
    const pi: Stripe.PaymentIntent = {
      ...clone(fx.paymentIntent),
      id: rid('pi'),
      amount: price.unit_amount ?? 0,
      amount_received: 0,
      currency: 'usd',
      customer: sub.customer as string,
      status: 'requires_payment_method',
      last_payment_error: null,
      created: this.now,
    };
    pi.client_secret = `${pi.id}_secret_${randomBytes(8).toString('hex')}`;
    this.paymentIntents.set(pi.id, pi);
    const invoice: Stripe.Invoice = {
      ...clone(fx.invoice),
      id: rid('in'),
      customer: sub.customer as string,
      status: 'open',
      amount_due: price.unit_amount ?? 0,
      amount_paid: 0,
      amount_remaining: price.unit_amount ?? 0,
      attempt_count: 0,
      billing_reason: reason,
      created: this.now,
      currency: 'usd',
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      confirmation_secret: { client_secret: pi.client_secret, type: 'payment_intent' },
      hosted_invoice_url: `${this.url}/invoice/${pi.id}`,
    };
    this.invoices.set(invoice.id, invoice);
    this.piInvoice.set(pi.id, invoice.id);
    sub.latest_invoice = invoice.id;
    return invoice;
  }
  private readonly piInvoice = new Map<string, string>();

  /** Charges an invoice's PaymentIntent with a card; the subscription follows, events go out. */
  async charge(invoiceId: string, card: string): Promise<{ ok: true } | { ok: false; error: Record<string, unknown> }> {
    const invoice = this.invoices.get(invoiceId)!;
    const pi = this.paymentIntents.get(String(invoice.confirmation_secret!.client_secret).split('_secret_')[0]!)!;
    const sub = this.subscriptions.get(String(invoice.parent!.subscription_details!.subscription))!;
    invoice.attempt_count += 1;
    if (card === DECLINED_CARD) {
      const error = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
      pi.status = 'requires_payment_method';
      pi.last_payment_error = { ...error, type: 'card_error' } as Stripe.PaymentIntent.LastPaymentError;
      if (sub.status !== 'incomplete') sub.status = 'past_due';
      await this.emit('invoice.payment_failed', invoice);
      if (sub.status === 'past_due') await this.emit('customer.subscription.updated', sub);
      return { ok: false, error: { ...error, payment_intent: { id: pi.id, status: pi.status } } };
    }
    this.cards.set(sub.customer as string, card);
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    const payment: Stripe.InvoicePayment = {
      ...clone(fx.invoicePayment),
      id: rid('inpay'),
      invoice: invoice.id,
      amount_paid: invoice.amount_due,
      amount_requested: invoice.amount_due,
      currency: 'usd',
      status: 'paid',
      is_default: true,
      payment: { type: 'payment_intent', payment_intent: pi.id },
    };
    this.invoicePayments.set(payment.id, payment);
    sub.status = 'active';
    await this.emit('invoice.paid', invoice);
    await this.emit('customer.subscription.updated', sub);
    return { ok: true };
  }

  /** The end of the current period: a cancelled-at-period-end subscription ends, else it renews
   *  (charging the saved card, or a declined one when `fail`). */
  async endPeriod(subscriptionId: string, { fail = false } = {}): Promise<void> {
    const sub = this.subscriptions.get(subscriptionId)!;
    const item = sub.items.data[0]!;
    this.now = Math.max(this.now, item.current_period_end);
    if (sub.cancel_at_period_end) {
      sub.status = 'canceled';
      sub.ended_at = this.now;
      sub.canceled_at = this.now;
      await this.emit('customer.subscription.deleted', sub);
      return;
    }
    item.current_period_start = item.current_period_end;
    item.current_period_end = this.period(item.price, item.current_period_start);
    const invoice = this.newInvoice(sub, 'subscription_cycle');
    await this.charge(invoice.id, fail ? DECLINED_CARD : (this.cards.get(sub.customer as string) ?? GOOD_CARD));
  }

  /** The customer fixed their card in the portal: Stripe retries the open invoice with it. */
  async retryWithCard(subscriptionId: string, card = GOOD_CARD) {
    const sub = this.subscriptions.get(subscriptionId)!;
    return this.charge(String(sub.latest_invoice), card);
  }

  /** A change made in the customer portal (or by the product): price, or cancel at period end. */
  async update(subscriptionId: string, change: { price?: string; cancelAtPeriodEnd?: boolean }) {
    const sub = this.subscriptions.get(subscriptionId);
    if (!sub) throw missing('subscription', subscriptionId);
    if (change.price) {
      const price = this.prices.get(change.price);
      if (!price) throw missing('price', change.price);
      sub.items.data[0]!.price = clone(price);
    }
    if (change.cancelAtPeriodEnd !== undefined) {
      sub.cancel_at_period_end = change.cancelAtPeriodEnd;
      sub.cancel_at = change.cancelAtPeriodEnd ? sub.items.data[0]!.current_period_end : null;
    }
    await this.emit('customer.subscription.updated', sub);
    return sub;
  }

  // ---- the API ----

  private list<T>(data: T[], url: string) {
    return { object: 'list', data, has_more: false, url };
  }

  private expanded(sub: Stripe.Subscription, expand: string[]): Stripe.Subscription {
    const out = clone(sub);
    const path = expand.map((e) => e.replace(/^data\./, ''));
    if (path.some((p) => p.startsWith('latest_invoice')) && typeof sub.latest_invoice === 'string') {
      const invoice = clone(this.invoices.get(sub.latest_invoice)!);
      if (!path.includes('latest_invoice.confirmation_secret')) delete invoice.confirmation_secret;
      out.latest_invoice = invoice;
    }
    return out;
  }

  private invoiceOut(invoice: Stripe.Invoice, expand: string[]) {
    const out = clone(invoice);
    if (!expand.includes('confirmation_secret')) delete out.confirmation_secret;
    return out;
  }

  private get<T>(map: Map<string, T>, kind: string, id: string): T {
    const found = map.get(id);
    if (!found) throw missing(kind, id);
    return found;
  }

  private async route(method: string, path: string, params: Params, auth: string): Promise<unknown> {
    const expand = (params.expand as string[] | undefined) ?? [];
    const seg = path.split('/').filter(Boolean);
    const is = (m: string, pattern: string) => {
      if (m !== method) return false;
      const parts = pattern.split('/').filter(Boolean);
      return parts.length === seg.length && parts.every((p, i) => p.startsWith(':') || p === seg[i]);
    };
    // Stripe.js's call, with the publishable key and the PaymentIntent's client secret.
    if (is('POST', '/v1/payment_intents/:id/confirm')) {
      const pi = this.get(this.paymentIntents, 'payment_intent', seg[2]!);
      if (auth === `Bearer ${this.publishableKey}` && params.client_secret !== pi.client_secret) throw new StripeError(400, { type: 'invalid_request_error', message: 'The client_secret provided does not match.' });
      const card = String((params.payment_method_data as Params | undefined)?.card ? ((params.payment_method_data as Params).card as Params).number : GOOD_CARD);
      const result = await this.charge(this.piInvoice.get(pi.id)!, card);
      if (!result.ok) throw new StripeError(402, result.error);
      return this.paymentIntents.get(pi.id);
    }
    if (auth !== `Bearer ${this.secretKey}`) throw new StripeError(401, { type: 'invalid_request_error', message: 'Invalid API Key provided.' });

    if (is('POST', '/v1/customers')) {
      const customer: Stripe.Customer = { ...clone(fx.customer), id: rid('cus'), email: String(params.email ?? ''), metadata: (params.metadata as Stripe.Metadata) ?? {}, created: this.now };
      this.customers.set(customer.id, customer);
      return customer;
    }
    if (is('GET', '/v1/customers/:id')) return this.get(this.customers, 'customer', seg[2]!);

    if (is('GET', '/v1/products/:id')) return this.get(this.products, 'product', seg[2]!);
    if (is('POST', '/v1/products')) {
      const product: Stripe.Product = { ...clone(fx.product), id: String(params.id ?? rid('prod')), name: String(params.name), description: (params.description as string) ?? null, metadata: (params.metadata as Stripe.Metadata) ?? {}, active: true, default_price: null };
      this.products.set(product.id, product);
      return product;
    }
    if (is('POST', '/v1/products/:id')) {
      const product = this.get(this.products, 'product', seg[2]!);
      Object.assign(product, { name: params.name ?? product.name, description: params.description ?? product.description, active: params.active === undefined ? product.active : params.active === 'true' });
      return product;
    }
    if (is('GET', '/v1/prices')) {
      const keys = (params.lookup_keys as string[] | undefined) ?? [];
      const data = [...this.prices.values()].filter((p) => (!keys.length || keys.includes(p.lookup_key ?? '')) && (params.active === undefined || p.active === (params.active === 'true')));
      return this.list(data, '/v1/prices');
    }
    if (is('POST', '/v1/prices')) {
      const recurring = params.recurring as Params;
      if (params.transfer_lookup_key === 'true') for (const p of this.prices.values()) if (p.lookup_key === params.lookup_key) p.lookup_key = null;
      const price: Stripe.Price = {
        ...clone(fx.price),
        id: rid('price'),
        product: String(params.product),
        currency: String(params.currency),
        unit_amount: Number(params.unit_amount),
        lookup_key: (params.lookup_key as string) ?? null,
        metadata: (params.metadata as Stripe.Metadata) ?? {},
        active: true,
        type: 'recurring',
        recurring: { interval: recurring.interval as Stripe.Price.Recurring.Interval, interval_count: 1, meter: null, usage_type: 'licensed', trial_period_days: null },
        created: this.now,
      };
      this.prices.set(price.id, price);
      return price;
    }
    if (is('POST', '/v1/prices/:id')) {
      const price = this.get(this.prices, 'price', seg[2]!);
      if (params.active !== undefined) price.active = params.active === 'true';
      return price;
    }

    if (is('GET', '/v1/subscriptions')) {
      const data = [...this.subscriptions.values()].filter((s) => (!params.customer || s.customer === params.customer) && (!params.status || s.status === params.status));
      return this.list(
        data.map((s) => this.expanded(s, expand)),
        '/v1/subscriptions',
      );
    }
    if (is('POST', '/v1/subscriptions')) {
      const customer = this.get(this.customers, 'customer', String(params.customer));
      const items = params.items as Array<{ price: string }>;
      const price = this.get(this.prices, 'price', items[0]!.price);
      if (!price.active) throw new StripeError(400, { type: 'invalid_request_error', param: 'items[0][price]', message: 'The price specified is inactive. This field only accepts active prices.' });
      const id = rid('sub');
      const item: Stripe.SubscriptionItem = { ...clone(fx.subscriptionItem), id: rid('si'), price: clone(price), subscription: id, quantity: 1, current_period_start: this.now, current_period_end: this.period(price, this.now), created: this.now };
      const sub: Stripe.Subscription = {
        ...clone(fx.subscription),
        id,
        customer: customer.id,
        status: params.payment_behavior === 'default_incomplete' ? 'incomplete' : 'active',
        items: { object: 'list', data: [item], has_more: false, url: `/v1/subscription_items?subscription=${id}` },
        metadata: (params.metadata as Stripe.Metadata) ?? {},
        created: this.now,
        start_date: this.now,
        billing_cycle_anchor: this.now,
        cancel_at: null,
        cancel_at_period_end: false,
        canceled_at: null,
        ended_at: null,
        trial_end: null,
        trial_start: null,
        latest_invoice: null,
      };
      this.subscriptions.set(id, sub);
      this.newInvoice(sub, 'subscription_create');
      await this.emit('customer.subscription.created', sub);
      return this.expanded(sub, expand);
    }
    if (is('GET', '/v1/subscriptions/:id')) return this.expanded(this.get(this.subscriptions, 'subscription', seg[2]!), expand);
    if (is('POST', '/v1/subscriptions/:id')) {
      const items = params.items as Array<{ price?: string }> | undefined;
      const sub = await this.update(seg[2]!, { price: items?.[0]?.price, cancelAtPeriodEnd: params.cancel_at_period_end === undefined ? undefined : params.cancel_at_period_end === 'true' });
      return this.expanded(sub, expand);
    }
    if (is('DELETE', '/v1/subscriptions/:id')) {
      const sub = this.get(this.subscriptions, 'subscription', seg[2]!);
      // As Stripe answers a second cancel (it keeps no idempotency key for a DELETE).
      if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
        throw new StripeError(400, { type: 'invalid_request_error', message: 'A canceled subscription can only update its cancellation_details and metadata.' });
      }
      sub.status = sub.status === 'incomplete' ? 'incomplete_expired' : 'canceled';
      sub.canceled_at = this.now;
      sub.ended_at = this.now;
      await this.emit('customer.subscription.deleted', sub);
      return this.expanded(sub, expand);
    }

    if (is('GET', '/v1/invoices')) {
      const data = [...this.invoices.values()]
        .filter((i) => (!params.customer || i.customer === params.customer) && (!params.subscription || i.parent?.subscription_details?.subscription === params.subscription) && (!params.status || i.status === params.status))
        .sort((a, b) => b.created - a.created);
      return this.list(
        data.map((i) => this.invoiceOut(i, expand)),
        '/v1/invoices',
      );
    }
    if (is('GET', '/v1/invoices/:id')) return this.invoiceOut(this.get(this.invoices, 'invoice', seg[2]!), expand);
    if (is('GET', '/v1/invoice_payments')) {
      const data = [...this.invoicePayments.values()].filter((p) => (!params.invoice || p.invoice === params.invoice) && (!params.status || p.status === params.status));
      return this.list(data, '/v1/invoice_payments');
    }
    if (is('GET', '/v1/refunds')) {
      const data = [...this.refunds.values()].filter((r) => !params.payment_intent || r.payment_intent === params.payment_intent).sort((a, b) => b.created - a.created);
      return this.list(data, '/v1/refunds');
    }
    if (is('GET', '/v1/events/:id')) return this.get(new Map(this.events.map((e) => [e.id, e])), 'event', seg[2]!);
    if (is('POST', '/v1/refunds')) {
      const pi = this.get(this.paymentIntents, 'payment_intent', String(params.payment_intent));
      if (pi.created < this.now - 180 * DAY) throw new StripeError(400, { type: 'invalid_request_error', code: 'charge_expired_for_refund', message: `Charge for ${pi.id} is too old to be refunded.` });
      if ([...this.refunds.values()].some((r) => r.payment_intent === pi.id)) throw new StripeError(400, { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge for ${pi.id} has already been refunded.` });
      const refund: Stripe.Refund = { ...clone(fx.refund), id: rid('re'), amount: pi.amount_received, currency: pi.currency, payment_intent: pi.id, status: 'succeeded', reason: 'requested_by_customer', metadata: (params.metadata as Stripe.Metadata) ?? {}, created: this.now };
      this.refunds.set(refund.id, refund);
      await this.emit('charge.refunded', refund);
      return refund;
    }

    if (is('GET', '/v1/webhook_endpoints')) return this.list([...this.webhookEndpoints.values()], '/v1/webhook_endpoints');
    if (is('POST', '/v1/webhook_endpoints')) {
      const endpoint: Stripe.WebhookEndpoint = { ...clone(fx.webhookEndpoint), id: rid('we'), url: String(params.url), enabled_events: params.enabled_events as string[], api_version: (params.api_version as string) ?? null, status: 'enabled', secret: this.webhookSecret };
      this.webhookEndpoints.set(endpoint.id, endpoint);
      return endpoint;
    }
    if (is('POST', '/v1/webhook_endpoints/:id')) {
      const endpoint = this.get(this.webhookEndpoints, 'webhook_endpoint', seg[2]!);
      if (params.enabled_events) endpoint.enabled_events = params.enabled_events as string[];
      if (params.disabled !== undefined) endpoint.status = params.disabled === 'true' ? 'disabled' : 'enabled';
      return { ...endpoint, secret: undefined };
    }
    if (is('GET', '/v1/billing_portal/configurations')) return this.list([...this.portalConfigurations.values()], '/v1/billing_portal/configurations');
    if (is('POST', '/v1/billing_portal/configurations') || is('POST', '/v1/billing_portal/configurations/:id')) {
      const existing = seg[3] ? this.get(this.portalConfigurations, 'billing_portal.configuration', seg[3]) : null;
      const config: Stripe.BillingPortal.Configuration = { ...(existing ?? { ...clone(fx.billingPortalConfiguration), id: rid('bpc') }), metadata: (params.metadata as Stripe.Metadata) ?? existing?.metadata ?? {}, active: true, default_return_url: (params.default_return_url as string) ?? null };
      this.portalConfigurations.set(config.id, config);
      return config;
    }
    if (is('POST', '/v1/billing_portal/sessions')) {
      const customer = this.get(this.customers, 'customer', String(params.customer));
      const session: Stripe.BillingPortal.Session = { ...clone(fx.billingPortalSession), id: rid('bps'), customer: customer.id, return_url: (params.return_url as string) ?? null, configuration: String(params.configuration ?? 'bpc_default'), created: this.now };
      session.url = `${this.url}/portal/${session.id}`;
      this.portalSessions.set(session.id, session);
      return session;
    }
    throw new StripeError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  /** The hosted customer portal, reduced to what the product's tests do there. */
  private async portal(req: IncomingMessage, res: ServerResponse, sessionId: string, body: Params) {
    const session = this.portalSessions.get(sessionId);
    if (!session) return void res.writeHead(404).end('No such portal session');
    const sub = [...this.subscriptions.values()].find((s) => s.customer === session.customer && ['active', 'past_due', 'trialing'].includes(s.status));
    if (req.method === 'POST' && sub) {
      if (body.action === 'cancel') await this.update(sub.id, { cancelAtPeriodEnd: true });
      if (body.action === 'renew') await this.update(sub.id, { cancelAtPeriodEnd: false });
      if (body.action === 'card') await this.retryWithCard(sub.id, String(body.card ?? GOOD_CARD));
      res.writeHead(303, { location: session.return_url ?? '/' }).end();
      return;
    }
    const plan = sub ? `${sub.items.data[0]!.price.lookup_key} (${sub.status}${sub.cancel_at_period_end ? ', cancels at period end' : ''})` : 'no subscription';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Billing portal (test double)</title>
<h1>Billing portal</h1><p id="plan">${plan}</p>
<form method="post"><input type="hidden" name="action" value="cancel"><button>Cancel plan</button></form>
<form method="post"><input type="hidden" name="action" value="card"><input name="card" value="${GOOD_CARD}"><button>Update payment method</button></form>
<a href="${session.return_url}">Return to LocalRank</a>`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://double');
    const params = parseForm(req.method === 'GET' || req.method === 'DELETE' ? url.search.slice(1) : Buffer.concat(chunks).toString('utf8'));
    // Stripe.js calls from the page (CORS).
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type', 'access-control-allow-methods': 'GET, POST' };
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    if (url.pathname.startsWith('/portal/')) return this.portal(req, res, url.pathname.split('/')[2]!, params);
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({ method: req.method!, path: url.pathname, idempotencyKey, params });
    const replay = idempotencyKey && this.idempotent.get(idempotencyKey);
    let status = 200;
    let body: unknown;
    const failure = this.failWith?.(req.method!, url.pathname);
    if (failure) ({ status, body } = { status: failure.status, body: { error: failure.error } });
    else if (replay) ({ status, body } = replay);
    else if (idempotencyKey && this.inFlight.has(idempotencyKey)) {
      // As Stripe: a second request with a key still being processed is told to retry.
      status = 409;
      body = { error: { type: 'idempotency_error', code: 'idempotency_key_in_use', message: 'There is currently another in-progress request using this Idempotent Key.' } };
      res.setHeader('stripe-should-retry', 'true');
    } else {
      if (idempotencyKey) this.inFlight.add(idempotencyKey);
      try {
        body = await this.route(req.method!, url.pathname, params, String(req.headers.authorization ?? ''));
      } catch (error) {
        if (!(error instanceof StripeError)) throw error;
        status = error.status;
        body = { error: error.body };
      }
      if (idempotencyKey && req.method === 'POST') this.idempotent.set(idempotencyKey, { status, body });
      if (idempotencyKey) this.inFlight.delete(idempotencyKey);
    }
    const text = JSON.stringify(body);
    if (this.beforeAnswer) await this.beforeAnswer(req.method!, url.pathname);
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': rid('req'), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}), ...cors }).end(text);
  }
}

export async function startStripeDouble(options: StripeDoubleOptions = {}): Promise<StripeDouble> {
  return new StripeDouble(options).start();
}
