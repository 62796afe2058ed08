// /account → Security: the address and whether it is confirmed (and what waits on it), changing
// the e-mail address (confirmed by a link to the new one) and the password (the current one
// required), and the account's active sessions with a way to sign out the others.
import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../common/constants.ts';
import { apiRequest, ApiError, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';
import { AuthField } from '../auth/auth-field.tsx';
import { deviceName } from './device-name.ts';
import './security.css';

interface SessionSummary {
  id: string;
  current: boolean;
  createdAt: string;
  lastActiveAt: string;
  userAgent: string | null;
  ipAddress: string | null;
}
interface Security {
  email: string;
  emailVerified: boolean;
  sessions: SessionSummary[];
}

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const TRY_AGAIN = 'Please check your connection and try again.';

function EmailStatus({ security }: { security: Security }) {
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  async function resend() {
    setBusy(true);
    try {
      await apiRequest('POST', '/api/auth/verification-email');
      setSent(true);
    } catch (e) {
      toast({ title: 'Link not sent', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  if (security.emailVerified) {
    return (
      <p className="sec-status is-ok" data-testid="email-status">
        <strong>{security.email}</strong> <span className="sec-pill">Confirmed</span>
      </p>
    );
  }
  return (
    <div className="sec-verify" data-testid="email-status">
      <p>
        <strong>{security.email}</strong> <span className="sec-pill is-warn">Not confirmed</span>
      </p>
      <p className="sec-note">Your account works as usual. Monthly reports and Early Warning alert e-mails wait until you open the confirmation link we e-mailed you.</p>
      {sent ? (
        <p className="sec-note" role="status">We have sent a new link to {security.email}.</p>
      ) : (
        <button type="button" className="btn btn-secondary btn-sm" onClick={resend} disabled={busy}>
          {busy ? 'Sending...' : 'Send the Link Again'}
        </button>
      )}
    </div>
  );
}

function ChangeEmail() {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const newEmail = String(new FormData(form).get('newEmail') ?? '').trim();
    if (!newEmail) return setError('Required');
    setBusy(true);
    try {
      const result = await apiRequest<{ message: string }>('POST', '/api/auth/change-email', { newEmail });
      setError(undefined);
      setDone(result.message);
      form.reset();
    } catch (e) {
      const field = e instanceof ApiError ? e.details.fields?.newEmail : undefined;
      if (field) setError(field);
      else toast({ title: 'E-mail not changed', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="sec-form" noValidate onSubmit={onSubmit} aria-labelledby="sec-email-title">
      <h3 id="sec-email-title">Change e-mail address</h3>
      <AuthField name="newEmail" label="New e-mail address" error={error}>
        {(a11y) => <input {...a11y} className="input" type="email" autoComplete="email" inputMode="email" />}
      </AuthField>
      {done && <p className="sec-note is-ok" role="status">{done}</p>}
      <button type="submit" className="btn btn-secondary" disabled={busy}>
        {busy ? 'Sending...' : 'Send Confirmation Link'}
      </button>
    </form>
  );
}

function ChangePassword({ onChanged }: { onChanged: () => void }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const currentPassword = String(data.get('currentPassword') ?? '');
    const newPassword = String(data.get('newPassword') ?? '');
    const found: Record<string, string> = {};
    if (!currentPassword) found.currentPassword = 'Required';
    if (newPassword.length < MIN_PASSWORD_LENGTH) found.newPassword = `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
    if (newPassword !== String(data.get('confirmNewPassword') ?? '')) found.confirmNewPassword = 'Passwords do not match';
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await apiRequest('POST', '/api/auth/change-password', { currentPassword, newPassword });
      form.reset();
      toast({ title: 'Password changed', description: 'Your other sessions were signed out.' });
      onChanged();
    } catch (e) {
      const fields = e instanceof ApiError ? e.details.fields : undefined;
      if (fields) setErrors(fields);
      else toast({ title: 'Password not changed', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="sec-form" noValidate onSubmit={onSubmit} aria-labelledby="sec-password-title">
      <h3 id="sec-password-title">Change password</h3>
      <AuthField name="currentPassword" label="Current password" error={errors.currentPassword}>
        {(a11y) => <input {...a11y} className="input" type="password" autoComplete="current-password" />}
      </AuthField>
      <AuthField name="newPassword" label="New password" error={errors.newPassword} hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}>
        {(a11y) => <input {...a11y} className="input" type="password" autoComplete="new-password" />}
      </AuthField>
      <AuthField name="confirmNewPassword" label="Confirm new password" error={errors.confirmNewPassword}>
        {(a11y) => <input {...a11y} className="input" type="password" autoComplete="new-password" />}
      </AuthField>
      <button type="submit" className="btn btn-secondary" disabled={busy}>
        {busy ? 'Saving...' : 'Change Password'}
      </button>
    </form>
  );
}

function Sessions({ sessions, onChanged }: { sessions: SessionSummary[]; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const others = sessions.filter((s) => !s.current).length;
  async function signOutOthers() {
    setBusy(true);
    try {
      await apiRequest('POST', '/api/auth/sessions/revoke-others');
      toast({ title: 'Signed out elsewhere', description: `${others} other ${others === 1 ? 'session was' : 'sessions were'} signed out.` });
      onChanged();
    } catch (e) {
      toast({ title: 'Sessions not ended', description: messageOf(e, TRY_AGAIN), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="sec-sessions">
      <h3 id="sec-sessions-title">Active sessions</h3>
      <ul className="sec-session-list" aria-labelledby="sec-sessions-title">
        {sessions.map((s) => (
          <li key={s.id} className="sec-session" data-current={s.current || undefined}>
            <span className="sec-session-device">
              {deviceName(s.userAgent)}
              {s.current && <span className="sec-pill">This device</span>}
            </span>
            <span className="sec-session-meta">
              {s.ipAddress ? `${s.ipAddress} · ` : ''}last active {when.format(new Date(s.lastActiveAt))} · signed in {when.format(new Date(s.createdAt))}
            </span>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-secondary" onClick={signOutOthers} disabled={busy || others === 0}>
        {busy ? 'Signing out...' : 'Sign Out Other Sessions'}
      </button>
    </div>
  );
}

export default function SecuritySection() {
  const [security, setSecurity] = useState<Security | null>(null);
  const [failed, setFailed] = useState(false);
  const load = useCallback(() => {
    apiRequest<Security>('GET', '/api/auth/security')
      .then((s) => {
        setSecurity(s);
        setFailed(false);
      })
      .catch(() => setFailed(true));
  }, []);
  useEffect(load, [load]);

  return (
    <section className="card sec" aria-labelledby="sec-title">
      <h2 id="sec-title">Security</h2>
      {failed && <p className="field-error" role="alert">Could not load your security settings. Reload the page to try again.</p>}
      {!security && !failed && <p className="sec-note">Loading...</p>}
      {security && (
        <>
          <EmailStatus security={security} />
          <div className="sec-grid">
            <ChangeEmail />
            <ChangePassword onChanged={load} />
          </div>
          <Sessions sessions={security.sessions} onChanged={load} />
        </>
      )}
    </section>
  );
}
