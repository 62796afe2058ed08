// "Forgot password?": asks for the address and always answers the same (whether or not an
// account uses it), as POST /api/auth/forgot-password does. The page hydrates it on first use
// (client:interaction, decision 0227): a submit made before then is held and made again.
import { useState, type SubmitEvent } from 'react';
import { apiRequest, ApiError, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';
import { AuthField } from './auth-field.tsx';
import './auth.css';

const FAILED = 'Could not send the link. Please check your connection and try again.';

export default function ForgotPasswordForm() {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    if (!email) {
      setError('Required');
      return;
    }
    setBusy(true);
    try {
      const result = await apiRequest<{ message: string }>('POST', '/api/auth/forgot-password', { email });
      setSent({ email, message: result.message });
    } catch (e) {
      const field = e instanceof ApiError ? e.details.fields?.email : undefined;
      if (field) setError(field);
      else toast({ title: 'Request failed', description: messageOf(e, FAILED), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <div className="auth-card card" data-testid="forgot-sent">
        <h1>Check your e-mail</h1>
        <p className="auth-lead" role="status">{sent.message}</p>
        <p className="auth-hint">Nothing after a few minutes? Check the spam folder, or make sure <strong>{sent.email}</strong> is the address you signed up with.</p>
        <p className="auth-switch"><a href="/login">Back to Sign In</a></p>
      </div>
    );
  }
  return (
    <div className="auth-card card">
      <h1>Forgot your password?</h1>
      <p className="auth-lead">Enter the e-mail address of your account and we will send you a link to set a new password.</p>
      <form className="auth-form" method="post" noValidate onSubmit={onSubmit} aria-label="Reset password">
        <AuthField name="email" label="Email" error={error}>
          {(a11y) => <input {...a11y} className="input" type="email" autoComplete="email" inputMode="email" autoFocus />}
        </AuthField>
        <button type="submit" className="btn btn-primary btn-block auth-submit" disabled={busy}>
          {busy && <span className="spinner" aria-hidden="true" />}
          {busy ? 'Sending...' : 'Send Reset Link'}
        </button>
      </form>
      <p className="auth-switch">Remembered it? <a href="/login">Sign in</a></p>
    </div>
  );
}
