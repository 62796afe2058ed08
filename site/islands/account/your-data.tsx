// /account → Your data: request an export of everything the account holds (a ZIP, e-mailed as a
// link valid 7 days; one per 24 hours) and delete the account (password and the e-mail typed to
// confirm; closed at once, erased after the grace period, restorable from the e-mailed link).
import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import { apiRequest, ApiError, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';
import { AuthField } from '../auth/auth-field.tsx';
import './your-data.css';

interface DataState {
  latestExport: { status: 'queued' | 'ready' | 'failed'; requestedAt: string; expiresAt: string | null; nextAllowedAt: string } | null;
  exportAllowed: boolean;
  exportLinkDays: number;
  graceDays: number;
}

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const TRY_AGAIN = 'Please check your connection and try again.';

function ExportCard({ state, onChanged }: { state: DataState; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const latest = state.latestExport;
  const waiting = !state.exportAllowed;
  async function request() {
    setBusy(true);
    try {
      const result = await apiRequest<{ message: string }>('POST', '/api/account/data/export');
      toast({ title: 'Export requested', description: result.message });
      onChanged();
    } catch (e) {
      toast({ title: 'Export not requested', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="yd-block">
      <h3>Export your data</h3>
      <p className="sec-note">
        A ZIP with your profile and plan, your businesses with every snapshot of their metrics, your reports with their PDFs, alerts and, for consultants, clients and branding with logos. JSON for each kind of
        record, CSV where a spreadsheet is handy, and a README. We e-mail you a download link that works for {state.exportLinkDays} days.
      </p>
      {latest && (
        <p className="sec-note" data-testid="export-status">
          {latest.status === 'queued' && <>Requested {when.format(new Date(latest.requestedAt))}: being prepared, the link will arrive by e-mail.</>}
          {latest.status === 'ready' && <>Requested {when.format(new Date(latest.requestedAt))}: sent by e-mail{latest.expiresAt ? `, link valid until ${when.format(new Date(latest.expiresAt))}` : ''}.</>}
          {latest.status === 'failed' && <>The export requested {when.format(new Date(latest.requestedAt))} could not be made. Please contact us.</>}
          {latest && waiting && <> You can request the next one after {when.format(new Date(latest.nextAllowedAt))}.</>}
        </p>
      )}
      <button type="button" className="btn btn-secondary" onClick={request} disabled={busy || waiting}>
        {busy ? 'Requesting...' : 'Request Data Export'}
      </button>
    </div>
  );
}

function DeleteAccount({ graceDays }: { graceDays: number }) {
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [closedUntil, setClosedUntil] = useState<string | null>(null);
  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get('password') ?? '');
    const confirmEmail = String(data.get('confirmEmail') ?? '').trim();
    const found: Record<string, string> = {};
    if (!password) found.password = 'Enter your password';
    if (!confirmEmail) found.confirmEmail = 'Type your e-mail address to confirm';
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const result = await apiRequest<{ purgeAfter: string }>('POST', '/api/account/delete', { password, confirmEmail });
      setClosedUntil(result.purgeAfter);
    } catch (e) {
      const fields = e instanceof ApiError ? e.details.fields : undefined;
      if (fields) setErrors(fields);
      else toast({ title: 'Account not deleted', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  if (closedUntil) {
    return (
      <div className="yd-block yd-closed" role="status" data-testid="account-closed">
        <h3>Your account is closed</h3>
        <p className="sec-note">
          You are signed out everywhere. We erase the account and its data on {when.format(new Date(closedUntil))}. Until then, the link we e-mailed you restores it or sends you an export.
        </p>
        <a className="btn btn-secondary" href="/">Back to Home</a>
      </div>
    );
  }
  return (
    <div className="yd-block yd-danger">
      <h3>Delete your account</h3>
      <p className="sec-note">
        Your account is closed at once: you are signed out everywhere, scheduled reports and alerts stop, and a paid subscription is cancelled. After {graceDays} days we erase it with its businesses, reports and files for good. Until then, a link we e-mail you restores it.
      </p>
      {!open ? (
        <button type="button" className="btn btn-danger-outline" onClick={() => setOpen(true)}>
          Delete My Account...
        </button>
      ) : (
        <form className="sec-form" noValidate onSubmit={onSubmit} aria-label="Delete your account">
          <AuthField name="password" label="Your password" error={errors.password}>
            {(a11y) => <input {...a11y} className="input" type="password" autoComplete="current-password" />}
          </AuthField>
          <AuthField name="confirmEmail" label="Type your e-mail address to confirm" error={errors.confirmEmail}>
            {(a11y) => <input {...a11y} className="input" type="email" autoComplete="off" inputMode="email" />}
          </AuthField>
          <div className="yd-actions">
            <button type="submit" className="btn btn-danger" disabled={busy}>
              {busy ? 'Deleting...' : 'Delete My Account'}
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

export default function YourData() {
  const [state, setState] = useState<DataState | null>(null);
  const [failed, setFailed] = useState(false);
  const load = useCallback(() => {
    apiRequest<DataState>('GET', '/api/account/data')
      .then((s) => {
        setState(s);
        setFailed(false);
      })
      .catch(() => setFailed(true));
  }, []);
  useEffect(load, [load]);
  return (
    <section className="card sec yd" aria-labelledby="yd-title" id="your-data">
      <h2 id="yd-title">Your data</h2>
      <p className="sec-note">
        What we keep and for how long is described in <a href="/privacy#your-rights">our privacy policy</a>.
      </p>
      {failed && <p className="field-error" role="alert">Could not load this section. Reload the page to try again.</p>}
      {!state && !failed && <p className="sec-note">Loading...</p>}
      {state && (
        <div className="sec-grid">
          <ExportCard state={state} onChanged={load} />
          <DeleteAccount graceDays={state.graceDays} />
        </div>
      )}
    </section>
  );
}
