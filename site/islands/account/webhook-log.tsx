// /account → API keys → Webhooks: each endpoint (added through the API) with its health (active,
// failing or disabled, the last success, failures since) and its delivery log, a page at a time —
// every attempt's status, time and the start of the answer — and Resend.
import { useCallback, useEffect, useState } from 'react';
import { apiRequest, messageOf } from '../../lib/api.ts';
import { WEBHOOK_EVENTS } from '../../../common/schemas/webhooks.ts';
import { toast } from '../../lib/toasts.ts';

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

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const STATUS = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' } as const;

export default function WebhookLog() {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
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

  return (
    <div className="hooks">
      <h3>Webhooks</h3>
      {!endpoints && <p className="sec-note">Loading...</p>}
      {endpoints?.length === 0 && (
        <p className="sec-note">
          No webhook endpoints. Add one with <code>POST /api/v1/webhooks</code> (<a href="/docs/api#webhooks">how</a>) to receive {WEBHOOK_EVENTS.map((e, i) => <span key={e}>{i > 0 && (i === WEBHOOK_EVENTS.length - 1 ? ' and ' : ', ')}<code>{e}</code></span>)}.
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
                      <td><button type="button" className="btn btn-secondary btn-sm" onClick={() => resend(e, d)} disabled={busy === d.id}>Resend</button></td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          {e.nextCursor && (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => older(e)} disabled={busy === e.id}>
              Show older deliveries
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
