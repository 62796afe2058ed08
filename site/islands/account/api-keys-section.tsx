// /account → API keys (Enterprise and Agency): create a key with a name and scopes (shown once in
// full), the list with prefix, last four, created and last-used times, roll (the old key keeps
// working for the grace period chosen) and revoke. The server checks the plan on every call.
import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import type { ApiKeySummary } from '../../../api/services/api-keys.ts';
import { API_SCOPE_LABELS, ROLL_GRACE_HOURS, type ApiScope } from '../../../common/schemas/api-keys.ts';
import { apiRequest, ApiError, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';
import { AuthField } from '../auth/auth-field.tsx';
import WebhookLog from './webhook-log.tsx';
import './api-keys.css';

interface Created {
  key: string;
  apiKey: ApiKeySummary;
}

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const TRY_AGAIN = 'Please check your connection and try again.';

function NewKey({ created, onDone }: { created: Created; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard?.writeText(created.key).then(() => setCopied(true), () => setCopied(false));
  }
  return (
    <div className="keys-new" role="status" data-testid="new-api-key">
      <p><strong>{created.apiKey.name}</strong>: copy this key now. It is shown only once; we keep only a hash of it.</p>
      <code className="keys-secret">{created.key}</code>
      <div className="keys-row-actions">
        <button type="button" className="btn btn-secondary btn-sm" onClick={copy}>{copied ? 'Copied' : 'Copy Key'}</button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onDone}>Done</button>
      </div>
    </div>
  );
}

function CreateKey({ scopes, onCreated }: { scopes: readonly ApiScope[]; onCreated: (c: Created) => void }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = { name: String(data.get('name') ?? '').trim(), scopes: data.getAll('scopes').map(String) };
    const found: Record<string, string> = {};
    if (!input.name) found.name = 'Give the key a name';
    if (!input.scopes.length) found.scopes = 'Choose at least one scope';
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      onCreated(await apiRequest<Created>('POST', '/api/api-keys', input));
      form.reset();
    } catch (e) {
      const fields = e instanceof ApiError ? e.details.fields : undefined;
      if (fields) setErrors(fields);
      else toast({ title: 'Key not created', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="keys-form" noValidate onSubmit={onSubmit} aria-labelledby="keys-create-title">
      <h3 id="keys-create-title">Create a key</h3>
      <AuthField name="name" label="Name" error={errors.name} hint="Where the key is used, e.g. “Reporting script”.">
        {(a11y) => <input {...a11y} className="input" type="text" maxLength={60} autoComplete="off" />}
      </AuthField>
      <fieldset className="keys-scopes" aria-describedby={errors.scopes ? 'keys-scopes-error' : undefined}>
        <legend>Scopes</legend>
        {/* Only the scopes this account type can use (the server's list; a business owner has no clients). */}
        {scopes.map((scope) => (
          <label key={scope} className="keys-scope">
            <input type="checkbox" name="scopes" value={scope} defaultChecked={scope.endsWith(':read')} />
            <code>{scope}</code> <span>{API_SCOPE_LABELS[scope]}</span>
          </label>
        ))}
        {errors.scopes && <p className="field-error" id="keys-scopes-error">{errors.scopes}</p>}
      </fieldset>
      <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Creating...' : 'Create Key'}</button>
    </form>
  );
}

function KeyRow({ apiKey, onCreated, onChanged }: { apiKey: ApiKeySummary; onCreated: (c: Created) => void; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [grace, setGrace] = useState(String(ROLL_GRACE_HOURS.default));
  async function roll() {
    setBusy(true);
    try {
      onCreated(await apiRequest<Created>('POST', `/api/api-keys/${apiKey.id}/roll`, { graceHours: Number(grace) }));
    } catch (e) {
      toast({ title: 'Key not rolled', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  async function revoke() {
    if (!window.confirm(`Revoke “${apiKey.name}”? Programs using it stop working at once.`)) return;
    setBusy(true);
    try {
      await apiRequest('DELETE', `/api/api-keys/${apiKey.id}`);
      toast({ title: 'Key revoked', description: `${apiKey.name} no longer works.` });
      onChanged();
    } catch (e) {
      toast({ title: 'Key not revoked', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <li className="keys-item" data-testid="api-key">
      <div className="keys-item-head">
        <span className="keys-name">{apiKey.name}</span>
        <code className="keys-mask">{apiKey.prefix}…{apiKey.lastFour}</code>
        {apiKey.expiresAt && <span className="sec-pill is-warn">Rolled: works until {when.format(new Date(apiKey.expiresAt))}</span>}
      </div>
      <p className="keys-meta">{apiKey.scopes.join(', ')}</p>
      <p className="keys-meta">Created {when.format(new Date(apiKey.createdAt))} · {apiKey.lastUsedAt ? `last used ${when.format(new Date(apiKey.lastUsedAt))}` : 'never used'}</p>
      <div className="keys-row-actions">
        {!apiKey.expiresAt && (
          <>
            <label className="keys-grace">
              Old key works for
              <select className="input" value={grace} onChange={(e) => setGrace(e.target.value)}>
                <option value="0">0 hours</option>
                <option value="1">1 hour</option>
                <option value="24">24 hours</option>
                <option value={String(ROLL_GRACE_HOURS.max)}>7 days</option>
              </select>
            </label>
            <button type="button" className="btn btn-secondary btn-sm" onClick={roll} disabled={busy}>Roll Key</button>
          </>
        )}
        <button type="button" className="btn btn-secondary btn-sm keys-revoke" onClick={revoke} disabled={busy}>Revoke</button>
      </div>
    </li>
  );
}

export default function ApiKeysSection() {
  const [keys, setKeys] = useState<ApiKeySummary[] | null>(null);
  const [scopes, setScopes] = useState<readonly ApiScope[]>([]);
  const [failed, setFailed] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const load = useCallback(() => {
    apiRequest<{ apiKeys: ApiKeySummary[]; scopes: ApiScope[] }>('GET', '/api/api-keys')
      .then((r) => {
        setKeys(r.apiKeys);
        setScopes(r.scopes);
        setFailed(false);
      })
      .catch(() => setFailed(true));
  }, []);
  useEffect(load, [load]);
  const onCreated = (c: Created) => {
    setCreated(c);
    load();
  };
  return (
    <section className="card keys" aria-labelledby="keys-title" id="api-keys">
      <h2 id="keys-title">API keys</h2>
      <p className="sec-note">
        Keys for the LocalRank API (<a href="/docs/api">documentation</a>). A key acts as you, limited to its scopes, while your plan includes API access.
      </p>
      {created && <NewKey created={created} onDone={() => setCreated(null)} />}
      <div className="keys-grid">
        <div>
          <h3>Your keys</h3>
          {failed && <p className="field-error" role="alert">Could not load your API keys. Reload the page to try again.</p>}
          {!keys && !failed && <p className="sec-note">Loading...</p>}
          {keys?.length === 0 && <p className="sec-note">No keys yet.</p>}
          {keys && keys.length > 0 && (
            <ul className="keys-list">
              {keys.map((k) => <KeyRow key={k.id} apiKey={k} onCreated={onCreated} onChanged={load} />)}
            </ul>
          )}
        </div>
        {keys && <CreateKey scopes={scopes} onCreated={onCreated} />}
      </div>
      <WebhookLog />
    </section>
  );
}
