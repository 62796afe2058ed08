// /account → API keys → Webhooks: add an endpoint (its signing secret shown once, with a copy
// button), send it a test event and see the delivery's answer, remove it; each endpoint with its
// health (active, failing or disabled, the last success, failures since) and its delivery log, a
// page at a time (every attempt's status, time and the start of the answer), with Resend. The same
// service as the API's /api/v1/webhooks answers; the server checks the plan and the address.
import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import { createWebhookSchema, WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS } from '../../../common/schemas/webhooks.ts';
import { apiRequest, ApiError, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';
import { AuthField, fieldMessages } from '../auth/auth-field.tsx';
import CopyButton from '../ui/copy-button.tsx';

interface Attempt {
  at: string;
  responseStatus: number | null;
  excerpt: string | null;
  durationMs: number;
}
interface Delivery {
  id: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed';
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: Attempt[];
}
interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  state: 'active' | 'failing' | 'disabled';
  disabledAt: string | null;
  lastSuccessAt: string | null;
  consecutiveFailures: number;
  deliveries: Delivery[];
  nextCursor: string | null;
}
interface Created {
  id: string;
  url: string;
  secret: string;
}
/** A test event's delivery, followed until it has an answer. */
type TestState = { endpointId: string; status: 'sending' } | { endpointId: string; status: 'delivered' | 'failed'; attempt: Attempt | undefined } | { endpointId: string; status: 'unknown' };

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const STATUS = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' } as const;
const TRY_AGAIN = 'Please check your connection and try again.';
/** How many times (a second apart) the screen asks for a test's answer before saying it is still on its way. */
const TEST_POLLS = 30;

const answerOf = (a: Attempt | undefined) => (a ? `${a.responseStatus ?? 'No answer'}${a.responseStatus === null ? '' : ` in ${a.durationMs} ms`}` : 'No answer');

function NewSecret({ created, onDone }: { created: Created; onDone: () => void }) {
  return (
    <div className="keys-new" role="status" data-testid="new-webhook-secret">
      <p>
        Endpoint added: <code>{created.url}</code>. Copy its signing secret now: it is shown only once. Your server verifies each delivery's <code>webhook-signature</code> with it.
      </p>
      <div className="hooks-secret-row">
        <code className="keys-secret" id="webhook-secret-value">{created.secret}</code>
        <CopyButton text={created.secret} what="the signing secret" targetId="webhook-secret-value" />
      </div>
      <div className="keys-row-actions">
        <button type="button" className="btn btn-secondary btn-sm" onClick={onDone}>Done</button>
      </div>
    </div>
  );
}

function AddEndpoint({ onCreated }: { onCreated: (c: Created) => void }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const description = String(data.get('description') ?? '').trim();
    const input = { url: String(data.get('url') ?? '').trim(), events: data.getAll('events').map(String), ...(description ? { description } : {}) };
    // The form's own rules are the server's (common/schemas/webhooks.ts); the server adds the address checks.
    const parsed = createWebhookSchema.safeParse(input);
    const found = parsed.success ? {} : fieldMessages(parsed.error.issues);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      onCreated(await apiRequest<Created>('POST', '/api/webhooks', input));
      form.reset();
    } catch (e) {
      const fields = e instanceof ApiError ? e.details.fields : undefined;
      if (fields) setErrors(fields);
      else toast({ title: 'Endpoint not added', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="keys-form hooks-form" noValidate onSubmit={onSubmit} aria-labelledby="hooks-add-title">
      <h3 id="hooks-add-title">Add an endpoint</h3>
      <AuthField name="url" label="Endpoint URL" error={errors.url} hint="A public http:// or https:// address on port 80 or 443, such as https://hooks.example.com/localrank">
        {(a11y) => <input {...a11y} className="input" type="url" inputMode="url" maxLength={2000} autoComplete="off" placeholder="https://" />}
      </AuthField>
      <AuthField name="description" label="Description (optional)" error={errors.description} hint="Your label for it, e.g. “Production”.">
        {(a11y) => <input {...a11y} className="input" type="text" maxLength={200} autoComplete="off" />}
      </AuthField>
      <fieldset className="keys-scopes" aria-describedby={errors.events ? 'hooks-events-error' : undefined}>
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((e) => (
          <label key={e} className="keys-scope">
            <input type="checkbox" name="events" value={e} />
            <code>{e}</code> <span>{WEBHOOK_EVENT_LABELS[e]}</span>
          </label>
        ))}
        {errors.events && <p className="field-error" id="hooks-events-error">{errors.events}</p>}
      </fieldset>
      <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Adding...' : 'Add Endpoint'}</button>
    </form>
  );
}

function TestResult({ test }: { test: TestState }) {
  if (test.status === 'sending') return <p className="keys-meta hooks-test" role="status" data-testid="webhook-test-result">Sending a test event...</p>;
  if (test.status === 'unknown') return <p className="keys-meta hooks-test" role="status" data-testid="webhook-test-result">The test event is still on its way: its answer will be in the log below.</p>;
  const ok = test.status === 'delivered';
  return (
    <p className={`hooks-test is-${test.status}`} role="status" data-testid="webhook-test-result">
      {ok ? 'Test delivered' : 'Test failed'}: {answerOf(test.attempt)}
      {!ok && test.attempt?.excerpt && <span className="keys-meta"> · {test.attempt.excerpt.slice(0, 160)}</span>}
    </p>
  );
}

export default function WebhookLog() {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const [test, setTest] = useState<TestState | null>(null);
  const load = useCallback(() => {
    apiRequest<{ endpoints: Endpoint[] }>('GET', '/api/webhooks').then((r) => setEndpoints(r.endpoints), () => setEndpoints([]));
  }, []);
  useEffect(load, [load]);

  async function older(endpoint: Endpoint) {
    setBusy(endpoint.id);
    try {
      const page = await apiRequest<{ deliveries: Delivery[]; nextCursor: string | null }>('GET', `/api/webhooks/${endpoint.id}/deliveries?cursor=${encodeURIComponent(endpoint.nextCursor!)}`);
      setEndpoints((all) => all?.map((e) => (e.id === endpoint.id ? { ...e, deliveries: [...e.deliveries, ...page.deliveries], nextCursor: page.nextCursor } : e)) ?? null);
    } catch (e) {
      toast({ title: 'Older deliveries not loaded', description: messageOf(e, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  async function resend(endpoint: Endpoint, delivery: Delivery) {
    setBusy(delivery.id);
    try {
      await apiRequest('POST', `/api/webhooks/${endpoint.id}/deliveries/${delivery.id}/resend`);
      toast({ title: 'Delivery queued', description: `${delivery.type} will be sent again to ${endpoint.url}.` });
      load();
    } catch (e) {
      toast({ title: 'Not resent', description: messageOf(e, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  /** Queues the test event, then asks for its delivery once a second until it has an answer. */
  async function sendTest(endpoint: Endpoint) {
    setBusy(endpoint.id);
    setTest({ endpointId: endpoint.id, status: 'sending' });
    try {
      const { id } = await apiRequest<{ id: string }>('POST', `/api/webhooks/${endpoint.id}/test`);
      load();
      for (let i = 0; i < TEST_POLLS; i++) {
        await new Promise((done) => setTimeout(done, 1000));
        const page = await apiRequest<{ deliveries: Delivery[] }>('GET', `/api/webhooks/${endpoint.id}/deliveries`);
        const delivery = page.deliveries.find((d) => d.id === id);
        if (delivery && delivery.status !== 'pending') {
          setTest({ endpointId: endpoint.id, status: delivery.status, attempt: delivery.attempts.at(-1) });
          load();
          return;
        }
      }
      setTest({ endpointId: endpoint.id, status: 'unknown' });
    } catch (e) {
      setTest(null);
      toast({ title: 'Test not sent', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  async function remove(endpoint: Endpoint) {
    if (!window.confirm(`Remove ${endpoint.url}? No more events are sent to it, and its delivery log is deleted.`)) return;
    setBusy(endpoint.id);
    try {
      await apiRequest('DELETE', `/api/webhooks/${endpoint.id}`);
      toast({ title: 'Endpoint removed', description: `${endpoint.url} receives no more events.` });
      if (created?.id === endpoint.id) setCreated(null);
      if (test?.endpointId === endpoint.id) setTest(null);
      load();
    } catch (e) {
      toast({ title: 'Endpoint not removed', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="hooks" id="webhooks">
      <h3>Webhooks</h3>
      <p className="sec-note">
        Events POSTed to your server as they happen, signed per Standard Webhooks (<a href="/docs/api#webhooks">how to verify them</a>); also managed with <code>/api/v1/webhooks</code>.
      </p>
      {created && <NewSecret created={created} onDone={() => setCreated(null)} />}
      <div className="keys-grid">
        <div>
          {!endpoints && <p className="sec-note">Loading...</p>}
          {endpoints?.length === 0 && (
            <p className="sec-note">
              No webhook endpoints yet. Add one to receive {WEBHOOK_EVENTS.map((e, i) => <span key={e}>{i > 0 && (i === WEBHOOK_EVENTS.length - 1 ? ' or ' : ', ')}<code>{e}</code></span>)}.
            </p>
          )}
          {endpoints?.map((e) => (
            <div key={e.id} className="hooks-endpoint" data-testid="webhook-endpoint">
              <p className="hooks-url">
                <code>{e.url}</code>{' '}
                {e.state === 'disabled' ? (
                  <span className="sec-pill is-warn" data-testid="webhook-state">Disabled {e.disabledAt && when.format(new Date(e.disabledAt))}</span>
                ) : e.state === 'failing' ? (
                  <span className="sec-pill is-warn" data-testid="webhook-state">Failing</span>
                ) : (
                  <span className="sec-pill" data-testid="webhook-state">Active</span>
                )}
              </p>
              <p className="keys-meta">{e.description ? `${e.description} · ` : ''}{e.events.join(', ')}</p>
              <p className="keys-meta" data-testid="webhook-health">
                Last success: {e.lastSuccessAt ? when.format(new Date(e.lastSuccessAt)) : 'never'}
                {e.consecutiveFailures > 0 && ` · ${e.consecutiveFailures} failed attempt${e.consecutiveFailures === 1 ? '' : 's'} since`}
                {e.state === 'disabled' && ' · rotate its secret (POST /api/v1/webhooks/{id}/rotate-secret) to enable it again'}
              </p>
              <div className="keys-row-actions">
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => void sendTest(e)} disabled={busy === e.id}>Send test</button>
                <button type="button" className="btn btn-secondary btn-sm keys-revoke" onClick={() => void remove(e)} disabled={busy === e.id}>Remove</button>
              </div>
              {test?.endpointId === e.id && <TestResult test={test} />}
              {e.deliveries.length === 0 ? (
                <p className="sec-note">No deliveries yet.</p>
              ) : (
                <table className="hooks-log">
                  <thead>
                    <tr><th>Event</th><th>Status</th><th>Last attempt</th><th><span className="sr-only">Actions</span></th></tr>
                  </thead>
                  <tbody>
                    {e.deliveries.map((d) => {
                      const last = d.attempts.at(-1);
                      return (
                        <tr key={d.id}>
                          <td><code>{d.type}</code><br /><span className="keys-meta">{when.format(new Date(d.createdAt))}</span></td>
                          <td className={`hooks-status is-${d.status}`}>{STATUS[d.status]}{d.attempts.length > 1 && ` (${d.attempts.length} attempts)`}</td>
                          <td className="hooks-last">
                            {last ? <>{last.responseStatus ?? 'No answer'} · {when.format(new Date(last.at))}{last.excerpt && <><br /><span className="keys-meta">{last.excerpt.slice(0, 120)}</span></>}</> : 'Not yet sent'}
                          </td>
                          <td><button type="button" className="btn btn-secondary btn-sm" onClick={() => void resend(e, d)} disabled={busy === d.id}>Resend</button></td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              )}
              {e.nextCursor && (
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => void older(e)} disabled={busy === e.id}>
                  Show older deliveries
                </button>
              )}
            </div>
          ))}
        </div>
        <AddEndpoint
          onCreated={(c) => {
            setCreated(c);
            load();
          }}
        />
      </div>
    </div>
  );
}
