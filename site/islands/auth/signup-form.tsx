// The sign-up form: e-mail, password twice, account type (consultant by default; switching to
// client clears the company name), company name for consultants, and the audience rule (18 or
// older, Terms accepted). Checked on submit with the shared zod schema, loaded lazily; then
// POST /api/auth/signup with the spec's payload and on to where spec section 2 says. The card
// around it is site/components/auth-card.astro; the page hydrates this island on first use
// (client:interaction), which holds a submit made before then and makes it again once hydrated.
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import type { AccountRole } from '../../../common/constants.ts';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';
import { destinationAfterAuth, readStoredPlan } from '../../lib/auth-redirect.ts';
import { setSignedIn, type Viewer } from '../../lib/session.ts';
import { queueToast, toast } from '../../lib/toasts.ts';
import { AuthField, fieldMessages, typedInto } from './auth-field.tsx';
import { loadAuthSchemas } from './load-schemas.ts';
import './auth.css';

const warmSchemas = () => void loadAuthSchemas().catch(() => undefined);
const SIGNUP_FAILED = 'Signup failed. Please try again.';
const FIELD_ORDER = ['email', 'password', 'confirmPassword', 'role', 'companyName', 'acceptTerms'];
const ROLES: ReadonlyArray<{ value: AccountRole; label: string; note: string }> = [
  { value: 'consultant', label: 'Consultant / Agency', note: 'I manage several clients' },
  { value: 'client', label: 'Business Owner', note: 'I want to analyse my own business' },
];

export default function SignupForm() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [chosenRole, setRole] = useState<AccountRole>('consultant');
  const form = useRef<HTMLFormElement>(null);

  // The browser's radios are the truth: take over a choice made before hydration.
  useEffect(() => {
    const picked = form.current?.querySelector<HTMLInputElement>('input[name="role"]:checked')?.value;
    if (picked === 'client' || picked === 'consultant') chooseRole(picked);
    // Typed before the island hydrated (it hydrates on first use): fetch the schemas now, as the
    // first input would have.
    if (typedInto(form.current)) warmSchemas();
  }, []);

  function chooseRole(next: AccountRole) {
    setRole(next);
    // The company field leaves the form (and its text with it) for a business owner.
    if (next === 'client') setErrors(({ companyName: _dropped, ...rest }) => rest);
  }

  function focusFirst(found: Record<string, string>) {
    const first = FIELD_ORDER.find((name) => found[name]);
    if (first) form.current?.querySelector<HTMLElement>(`#auth-${first}`)?.focus();
  }

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const data = new FormData(event.currentTarget);
    // The checked radio, not the state: a submit held until hydration is made again before the
    // effect above has taken over a choice clicked earlier.
    const picked = data.get('role');
    const role: AccountRole = picked === 'client' || picked === 'consultant' ? picked : chosenRole;
    const values = {
      email: String(data.get('email') ?? ''),
      password: String(data.get('password') ?? ''),
      confirmPassword: String(data.get('confirmPassword') ?? ''),
      role,
      companyName: role === 'consultant' ? String(data.get('companyName') ?? '') : '',
      acceptTerms: data.get('acceptTerms') === 'on',
    };
    setBusy(true);
    let signupFormSchema;
    try {
      ({ signupFormSchema } = await loadAuthSchemas());
    } catch {
      toast({ title: 'Signup failed', description: 'Could not reach LocalRank. Please check your connection and try again.', variant: 'destructive' });
      setBusy(false);
      return;
    }
    const parsed = signupFormSchema.safeParse(values);
    if (!parsed.success) {
      const found = fieldMessages(parsed.error.issues);
      setErrors(found);
      setBusy(false);
      focusFirst(found);
      return;
    }
    setErrors({});
    const { email, password, companyName: company } = parsed.data;
    try {
      const viewer = await apiRequest<Viewer>('POST', '/api/auth/signup', role === 'consultant' ? { email, password, role, companyName: company } : { email, password, role });
      setSignedIn(viewer);
      queueToast({ title: 'Account created!', description: `Welcome to LocalRank, ${viewer.user.email}.` });
      window.location.assign(destinationAfterAuth(window.location.search, readStoredPlan()));
    } catch (error) {
      if (error instanceof ApiError && error.details.fields) {
        setErrors(error.details.fields);
        focusFirst(error.details.fields);
      }
      toast({ title: 'Signup failed', description: messageOf(error, SIGNUP_FAILED), variant: 'destructive' });
      setBusy(false);
    }
  }

  // method="post": a submit the browser made itself (with no script at all) never puts the
  // passwords into an address.
  return (
    <form ref={form} className="auth-form" method="post" noValidate onSubmit={onSubmit} onInput={warmSchemas} onPointerDown={warmSchemas} aria-label="Sign up">
      <fieldset className="auth-roles" aria-describedby={errors.role ? 'auth-role-error' : undefined}>
        <legend className="label">Account type</legend>
        <div className="auth-role-options">
          {ROLES.map((r) => (
            <label key={r.value} className="auth-role">
              {/* Uncontrolled: a choice clicked before the page is interactive stays, and is read on hydration. */}
              <input type="radio" name="role" value={r.value} defaultChecked={r.value === 'consultant'} onChange={() => chooseRole(r.value)} id={r.value === 'consultant' ? 'auth-role' : undefined} />
              <span className="auth-role-text">
                <span className="auth-role-label">{r.label}</span>
                <span className="auth-role-note">{r.note}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.role && (
          <p className="field-error" id="auth-role-error">
            {errors.role}
          </p>
        )}
      </fieldset>
      <AuthField name="email" label="Email" error={errors.email}>
        {(a11y) => <input {...a11y} className="input" type="email" autoComplete="email" inputMode="email" />}
      </AuthField>
      {chosenRole === 'consultant' && (
        <AuthField name="companyName" label="Company name" error={errors.companyName}>
          {(a11y) => <input {...a11y} className="input" type="text" autoComplete="organization" />}
        </AuthField>
      )}
      <AuthField name="password" label="Password" error={errors.password} hint="At least 8 characters.">
        {(a11y) => <input {...a11y} className="input" type="password" autoComplete="new-password" />}
      </AuthField>
      <AuthField name="confirmPassword" label="Confirm password" error={errors.confirmPassword}>
        {(a11y) => <input {...a11y} className="input" type="password" autoComplete="new-password" />}
      </AuthField>
      <div className="field">
        <label className="checkbox auth-terms">
          <input
            type="checkbox"
            name="acceptTerms"
            id="auth-acceptTerms"
            aria-invalid={errors.acceptTerms ? true : undefined}
            aria-describedby={errors.acceptTerms ? 'auth-acceptTerms-error' : undefined}
          />
          <span>
            I am 18 or older and I accept the{' '}
            <a href="/terms" target="_blank" rel="noopener">
              Terms of Service
            </a>{' '}
            and the{' '}
            <a href="/privacy" target="_blank" rel="noopener">
              Privacy Policy
            </a>
            .
          </span>
        </label>
        {errors.acceptTerms && (
          <p className="field-error" id="auth-acceptTerms-error">
            {errors.acceptTerms}
          </p>
        )}
      </div>
      <button type="submit" className="btn btn-primary btn-block auth-submit" disabled={busy}>
        {busy && <span className="spinner" aria-hidden="true" />}
        {busy ? 'Creating account...' : 'Create Account'}
      </button>
    </form>
  );
}
