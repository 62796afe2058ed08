// The login form: e-mail and password, checked on submit with the API's own zod schema (loaded
// lazily, so zod is not in the page's first JavaScript), then POST /api/auth/login. On success the
// session store is set, 'Welcome back!' is queued for the next page, and the browser goes where
// spec section 2 says (auth-redirect.ts). The card around it (heading, signed-in note, the link
// to sign up) is site/components/auth-card.astro; the page hydrates this island on first use
// (client:interaction), which holds a submit made before then and makes it again once hydrated.
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { apiRequest, messageOf, ApiError } from '../../lib/api.ts';
import { destinationAfterAuth, readStoredPlan } from '../../lib/auth-redirect.ts';
import { setSignedIn, type Viewer } from '../../lib/session.ts';
import { queueToast, toast } from '../../lib/toasts.ts';
import { AuthField, fieldMessages, typedInto } from './auth-field.tsx';
import { loadAuthSchemas } from './load-schemas.ts';
import './auth.css';

const warmSchemas = () => void loadAuthSchemas().catch(() => undefined);
const LOGIN_FAILED = 'Login failed. Please check your credentials.';
const OFFLINE = 'Could not reach LocalRank. Please check your connection and try again.';

export default function LoginForm() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  // Typed before the island hydrated (it hydrates on first use): fetch the schemas now, as the
  // first input would have.
  useEffect(() => {
    if (typedInto(form.current)) warmSchemas();
  }, []);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const data = new FormData(event.currentTarget);
    const values = { email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') };
    setBusy(true);
    const found: Record<string, string> = {};
    if (!values.email.trim()) found.email = 'Required';
    if (!values.password) found.password = 'Required';
    let payload = values;
    if (!Object.keys(found).length) {
      let loginSchema;
      try {
        ({ loginSchema } = await loadAuthSchemas());
      } catch {
        toast({ title: 'Login failed', description: OFFLINE, variant: 'destructive' });
        setBusy(false);
        return;
      }
      const parsed = loginSchema.safeParse(values);
      if (parsed.success) payload = parsed.data;
      else Object.assign(found, fieldMessages(parsed.error.issues));
    }
    setErrors(found);
    if (Object.keys(found).length) {
      setBusy(false);
      form.current?.querySelector<HTMLElement>(`#auth-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    try {
      const viewer = await apiRequest<Viewer>('POST', '/api/auth/login', payload);
      setSignedIn(viewer);
      queueToast({ title: 'Welcome back!', description: `Signed in as ${viewer.user.email}.` });
      window.location.assign(destinationAfterAuth(window.location.search, readStoredPlan()));
    } catch (error) {
      if (error instanceof ApiError && error.details.fields) setErrors(error.details.fields);
      toast({ title: 'Login failed', description: messageOf(error, LOGIN_FAILED), variant: 'destructive' });
      setBusy(false);
    }
  }

  // method="post": a submit the browser made itself (with no script at all) never puts the
  // password into an address.
  return (
    <form ref={form} className="auth-form" method="post" noValidate onSubmit={onSubmit} onInput={warmSchemas} onPointerDown={warmSchemas} aria-label="Sign in">
      <AuthField name="email" label="Email" error={errors.email}>
        {(a11y) => <input {...a11y} className="input" type="email" autoComplete="email" inputMode="email" autoFocus />}
      </AuthField>
      <AuthField name="password" label="Password" error={errors.password}>
        {(a11y) => <input {...a11y} className="input" type="password" autoComplete="current-password" />}
      </AuthField>
      <p className="auth-forgot">
        <a href="/forgot-password">Forgot password?</a>
      </p>
      <button type="submit" className="btn btn-primary btn-block auth-submit" disabled={busy}>
        {busy && <span className="spinner" aria-hidden="true" />}
        {busy ? 'Signing in...' : 'Sign In'}
      </button>
    </form>
  );
}
