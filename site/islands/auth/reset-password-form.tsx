// The page behind the reset e-mail's link (/reset-password?token=…): a new password, twice. The
// link works once; afterwards every session of the account has ended, so the user signs in.
import { useState, useSyncExternalStore, type SubmitEvent } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../common/constants.ts';
import { apiRequest, ApiError, messageOf } from '../../lib/api.ts';
import { clearSession } from '../../lib/session.ts';
import { queueToast, toast } from '../../lib/toasts.ts';
import { AuthField } from './auth-field.tsx';
import './auth.css';

const noSubscription = () => () => {};
const tokenOf = () => new URLSearchParams(window.location.search).get('token') ?? '';

export default function ResetPasswordForm() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const token = useSyncExternalStore(noSubscription, tokenOf, () => null);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !token) return;
    const data = new FormData(event.currentTarget);
    const newPassword = String(data.get('newPassword') ?? '');
    const found: Record<string, string> = {};
    if (newPassword.length < MIN_PASSWORD_LENGTH) found.newPassword = `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
    if (newPassword !== String(data.get('confirmPassword') ?? '')) found.confirmPassword = 'Passwords do not match';
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await apiRequest('POST', '/api/auth/reset-password', { token, newPassword });
      clearSession();
      queueToast({ title: 'Password changed', description: 'Sign in with your new password.' });
      window.location.assign('/login');
    } catch (e) {
      const fields = e instanceof ApiError ? e.details.fields : undefined;
      if (fields?.token) setErrors({ token: fields.token });
      else if (fields) setErrors(fields);
      else toast({ title: 'Password not changed', description: messageOf(e, 'Please check your connection and try again.'), variant: 'destructive' });
      setBusy(false);
    }
  }

  if (token === '' || errors.token) {
    return (
      <div className="auth-card card">
        <h1>This link does not work</h1>
        <p className="auth-lead" role="alert">{errors.token ?? 'The link is incomplete. Open the whole link from the e-mail, or ask for a new one.'}</p>
        <a className="btn btn-primary btn-block" href="/forgot-password">Send a New Link</a>
      </div>
    );
  }
  return (
    <div className="auth-card card">
      <h1>Set a new password</h1>
      <p className="auth-lead">Choose a password of at least {MIN_PASSWORD_LENGTH} characters. Every device signed in to your account will be signed out.</p>
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label="Set a new password">
        <AuthField name="newPassword" label="New password" error={errors.newPassword}>
          {(a11y) => <input {...a11y} className="input" type="password" autoComplete="new-password" autoFocus />}
        </AuthField>
        <AuthField name="confirmPassword" label="Confirm new password" error={errors.confirmPassword}>
          {(a11y) => <input {...a11y} className="input" type="password" autoComplete="new-password" />}
        </AuthField>
        <button type="submit" className="btn btn-primary btn-block auth-submit" disabled={token === null || busy}>
          {busy && <span className="spinner" aria-hidden="true" />}
          {busy ? 'Saving...' : 'Set New Password'}
        </button>
      </form>
    </div>
  );
}
