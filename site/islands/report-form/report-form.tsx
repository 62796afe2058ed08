// The free-report request form: checks the fields with the API's rules (without zod, see
// docs/decisions/0020), sends them, and shows the confirmation. Inputs are uncontrolled: the
// values are read once, on submit, which keeps the island small.
import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode, type SubmitEvent } from 'react';
import { REPORT_DELIVERY_TEXT } from '../../../common/constants.ts';
import {
  checkReportRequest,
  CONSENT_TEXT,
  REPORT_ROLES,
  type ReportRequestErrors,
  type ReportRequestFields,
} from '../../../common/schemas/report-request-rules.ts';
import { ApiError, apiRequest } from '../../lib/api.ts';
import type { PowChallenge } from '../../lib/solve-pow.ts';
import { AddressFields } from '../ui/address-fields.tsx';
import { toast } from '../../lib/toasts.ts';
import './report-form.css';

type Phase = 'idle' | 'submitting' | 'success';
const noSubscription = () => () => {};

const TEXT_FIELDS = ['fullName', 'email', 'company', 'role', 'website', 'address', 'city', 'state', 'zip'] as const;

function Field(props: { name: ReportRequestFields; label: string; error?: string; wide?: boolean; children: (a11y: Record<string, string | boolean | undefined>) => ReactNode }) {
  const id = `rf-${props.name}`;
  const a11y = { id, name: props.name, 'aria-invalid': props.error ? true : undefined, 'aria-describedby': props.error ? `${id}-error` : undefined };
  return (
    <div className={props.wide ? 'field rf-wide' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      {props.children(a11y)}
      {props.error && (
        <p className="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A moment in the visitor's own time zone: "Thursday, December 3, from 6:01 PM". */
const whenLocal = (iso: string) => {
  const at = new Date(iso);
  return `${at.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' })}, from ${at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}`;
};

/** Sends the request; when the server asks for a proof of work (decision 0350), solves its
 *  challenge and sends it again, twice at most, without the visitor doing anything. */
async function submitWithProof(payload: Record<string, unknown>) {
  for (let round = 0; ; round++) {
    try {
      return await apiRequest<{ waitsUntil?: string }>('POST', '/api/submit-request', payload);
    } catch (error) {
      const challenge = round < 2 && error instanceof ApiError && error.status === 400 ? error.details.challenge : undefined;
      if (!challenge) throw error;
      const { solvePow } = await import('../../lib/solve-pow.ts');
      payload.altcha = await solvePow(challenge as PowChallenge);
    }
  }
}

export default function ReportForm() {
  const [phase, setPhase] = useState<Phase>('idle');
  const [errors, setErrors] = useState<ReportRequestErrors>({});
  const [formError, setFormError] = useState('');
  const [company, setCompany] = useState('');
  // Past the day's provider budget the report is kept and made from this moment (decision 0271).
  const [waitsUntil, setWaitsUntil] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // False in the server's HTML and while hydrating, true after: until then the button stays
  // disabled, so a click never submits the bare HTML form.
  const ready = useSyncExternalStore(noSubscription, () => true, () => false);
  useEffect(() => {
    // The confirmation is shorter than the form: bring it to the middle of the screen and move
    // focus to its heading so screen readers announce it.
    if (phase === 'success' && heading.current) {
      heading.current.focus({ preventScroll: true });
      heading.current.scrollIntoView({ block: 'center' });
    }
  }, [phase]);

  function focusFirstError(found: ReportRequestErrors) {
    const first = [...TEXT_FIELDS, 'consent' as const].find((name) => found[name]);
    if (first) form.current?.querySelector<HTMLElement>(`#rf-${first}`)?.focus();
  }

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (phase === 'submitting') return;
    const data = new FormData(event.currentTarget);
    const payload: Record<string, unknown> = Object.fromEntries(TEXT_FIELDS.map((name) => [name, String(data.get(name) ?? '').trim()]));
    payload.consent = data.get('consent') === 'on';
    const found = checkReportRequest(payload, { requireConsent: true });
    setErrors(found);
    setFormError('');
    if (Object.keys(found).length) {
      focusFirstError(found);
      return;
    }
    setPhase('submitting');
    try {
      const answer = await submitWithProof(payload);
      setWaitsUntil(answer?.waitsUntil ?? null);
      setCompany(String(payload.company));
      setPhase('success');
      toast({ title: 'Report Requested!', description: "Your business analysis is being processed. You'll receive an email when it's ready." });
    } catch (error) {
      // One failure, one message: fields the server refused are marked where they are, under the
      // spec's toast; any other refusal (a limit, the network) is said once, the same in both places.
      const details = error instanceof ApiError ? error.details : {};
      setPhase('idle');
      if (details.fields && !details.fields.altcha) {
        setErrors(details.fields as ReportRequestErrors);
        focusFirstError(details.fields as ReportRequestErrors);
        toast({ title: 'Submission Failed', description: 'Please check your information and try again.', variant: 'destructive' });
        return;
      }
      const message = details.fields?.altcha ?? details.message ?? 'We could not send your request. Please check your connection and try again.';
      setFormError(message);
      toast({ title: 'Submission Failed', description: message, variant: 'destructive' });
    }
  }

  function clearError(name: ReportRequestFields) {
    if (errors[name]) setErrors(({ [name]: _, ...rest }) => rest);
  }

  if (phase === 'success') {
    return (
      <div className="rf-success">
        <span className="rf-success-icon" aria-hidden="true">
          <svg width="32" height="32" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round"><path d="M20 6 9 17l-5-5" /></svg>
        </span>
        <h3 ref={heading} tabIndex={-1}>Report Being Generated!</h3>
        <p>
          {waitsUntil
            ? `Your request for ${company || 'your business'} is in our queue. So many reports were asked for today that yours is scheduled for ${whenLocal(waitsUntil)}; an email with your report will arrive within the hour after that. You don't need to do anything.`
            : `We're analysing ${company || 'your business'} and its top local competitors now. An email with your report will arrive in ${REPORT_DELIVERY_TEXT}.`}
        </p>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => {
            setErrors({});
            setFormError('');
            setPhase('idle');
          }}
        >
          Submit Another Request
        </button>
      </div>
    );
  }

  const submitting = phase === 'submitting';
  const input = (type: string, autoComplete: string) => ({ type, autoComplete, className: 'input', required: true });
  return (
    <form ref={form} className="rf" noValidate={ready} onSubmit={onSubmit} aria-busy={submitting} onInput={(e) => clearError((e.target as Element).getAttribute('name') as ReportRequestFields)}>
      <div className="rf-grid">
        <Field name="fullName" label="Full Name" error={errors.fullName}>{(a) => <input {...a} {...input('text', 'name')} placeholder="Jane Smith" />}</Field>
        <Field name="email" label="Email Address" error={errors.email}>{(a) => <input {...a} {...input('email', 'email')} placeholder="jane@yourbusiness.com" />}</Field>
        <Field name="company" label="Company Name" error={errors.company}>{(a) => <input {...a} {...input('text', 'organization')} placeholder="Your Business LLC" />}</Field>
        <Field name="role" label="Your Role" error={errors.role}>
          {(a) => (
            <select {...a} className="select" required>
              <option value="" hidden>Select your role</option>
              {REPORT_ROLES.map((r) => <option key={r.value} value={r.value}>{r.label}</option>)}
            </select>
          )}
        </Field>
        <Field name="website" label="Business Website" error={errors.website} wide>{(a) => <input {...a} {...input('url', 'url')} placeholder="https://www.yourbusiness.com" />}</Field>
        <AddressFields Field={Field} errors={errors} pairClass="rf-pair" />
      </div>
      <div className="field">
        <label className="checkbox" htmlFor="rf-consent">
          <input type="checkbox" id="rf-consent" name="consent" required aria-invalid={errors.consent ? true : undefined} aria-describedby={errors.consent ? 'rf-consent-error' : undefined} />
          <span>{CONSENT_TEXT}</span>
        </label>
        {errors.consent && <p className="field-error" id="rf-consent-error">{errors.consent}</p>}
      </div>
      {formError && <p className="rf-form-error" role="alert">{formError}</p>}
      <button type="submit" className="btn btn-primary btn-block rf-submit" disabled={!ready || submitting}>
        {submitting ? (
          <>
            <span className="spinner" aria-hidden="true" /> Processing...
          </>
        ) : (
          'Generate My Free Report'
        )}
      </button>
      <p className="rf-fine">Free. No credit card required.</p>
    </form>
  );
}
