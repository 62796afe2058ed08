// The contact form: checks the fields with the API's rules (without zod, as the report form
// does), sends the message to POST /api/contact, and shows the 'Message Received' screen with the
// 'Message Sent!' toast. The server's per-field 400 messages show under the inputs the same way.
import { useEffect, useRef, useState, useSyncExternalStore, type SubmitEvent } from 'react';
import { OPERATOR } from '../../../common/constants.ts';
import { checkContactMessage, CONTACT_SUBJECTS, type ContactErrors, type ContactFields } from '../../../common/schemas/contact-rules.ts';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';
import BreakableEmail from '../ui/breakable-email.tsx';
import './contact-form.css';

const FIELDS: readonly ContactFields[] = ['name', 'email', 'subject', 'message'];
const noSubscription = () => () => {};

export default function ContactForm() {
  const [phase, setPhase] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [errors, setErrors] = useState<ContactErrors>({});
  const [formError, setFormError] = useState('');
  const [sender, setSender] = useState({ name: '', email: '' });
  const form = useRef<HTMLFormElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The page hydrates this island on interaction (client:interaction): until then the bare HTML
  // form works on its own, with the browser's own checks, posted to the same endpoint, which
  // answers a plain form post with the 'sent' page. Once hydrated, the checks are ours.
  const ready = useSyncExternalStore(noSubscription, () => true, () => false);

  useEffect(() => {
    if (phase === 'sent') heading.current?.focus();
  }, [phase]);

  function showErrors(found: ContactErrors) {
    setErrors(found);
    const first = FIELDS.find((name) => found[name]);
    if (first) form.current?.querySelector<HTMLElement>(`#contact-${first}`)?.focus();
  }

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (phase === 'sending') return;
    const data = new FormData(event.currentTarget);
    const payload = Object.fromEntries(FIELDS.map((name) => [name, String(data.get(name) ?? '').trim()]));
    const found = checkContactMessage(payload);
    setFormError('');
    if (Object.keys(found).length) return showErrors(found);
    setErrors({});
    setPhase('sending');
    try {
      await apiRequest('POST', '/api/contact', payload);
      setSender({ name: payload.name!, email: payload.email! });
      setPhase('sent');
      toast({ title: 'Message Sent!', description: `We'll get back to you within ${OPERATOR.replyTime}.` });
    } catch (error) {
      const details = error instanceof ApiError ? error.details : {};
      if (details.fields) showErrors(details.fields as ContactErrors);
      const message = details.message ?? 'We could not send your message. Please check your connection and try again.';
      setFormError(message);
      setPhase('idle');
      toast({ title: 'Message Not Sent', description: message, variant: 'destructive' });
    }
  }

  function clearError(name: string | null) {
    if (name && errors[name as ContactFields]) setErrors(({ [name as ContactFields]: _, ...rest }) => rest);
  }

  if (phase === 'sent') {
    return (
      <div className="contact-sent">
        <span className="contact-sent-icon" aria-hidden="true">
          <svg width="32" height="32" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round"><path d="M20 6 9 17l-5-5" /></svg>
        </span>
        <h2 ref={heading} tabIndex={-1}>Message Received</h2>
        <p>
          Thank you, {sender.name}. We'll reply to <strong><BreakableEmail email={sender.email} /></strong> within {OPERATOR.replyTime} ({OPERATOR.hours}).
        </p>
        <button type="button" className="btn btn-secondary" onClick={() => setPhase('idle')}>
          Send Another Message
        </button>
      </div>
    );
  }

  const a11y = (name: ContactFields) => ({
    id: `contact-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `contact-${name}-error` : undefined,
  });
  const error = (name: ContactFields) =>
    errors[name] && (
      <p className="field-error" id={`contact-${name}-error`}>
        {errors[name]}
      </p>
    );
  const sending = phase === 'sending';
  return (
    <form ref={form} className="contact-form" action="/api/contact" method="post" noValidate={ready} onSubmit={onSubmit} aria-busy={sending} onInput={(e) => clearError((e.target as Element).getAttribute('name'))}>
      <h2 id="contact-form-title" className="contact-title">
        Send us a message
      </h2>
      <div className="contact-grid">
        <div className="field">
          <label htmlFor="contact-name">Name</label>
          <input {...a11y('name')} className="input" type="text" autoComplete="name" required minLength={2} placeholder="Jane Smith" />
          {error('name')}
        </div>
        <div className="field">
          <label htmlFor="contact-email">Email</label>
          <input {...a11y('email')} className="input" type="email" autoComplete="email" required placeholder="jane@yourbusiness.com" />
          {error('email')}
        </div>
      </div>
      <div className="field">
        <label htmlFor="contact-subject">Subject</label>
        <select {...a11y('subject')} className="select" required>
          <option value="" hidden>
            Select a subject
          </option>
          {CONTACT_SUBJECTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        {error('subject')}
      </div>
      <div className="field">
        <label htmlFor="contact-message">Message</label>
        <textarea {...a11y('message')} className="textarea" rows={6} required minLength={10} placeholder="How can we help?" />
        {error('message')}
      </div>
      {formError && (
        <p className="contact-form-error" role="alert">
          {formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block contact-submit" disabled={sending}>
        {sending ? (
          <>
            <span className="spinner" aria-hidden="true" /> Sending...
          </>
        ) : (
          'Send Message'
        )}
      </button>
    </form>
  );
}
