// /branding's "Sending e-mail": the address the agency's white-label e-mail leaves from. Its own
// SMTP server (host, port, TLS, user, password; the password is stored encrypted and never shown
// again) with "Send a test", or else the operator's neutral address (api/services/agency-mail/mail-server.ts).
import { useEffect, useState, type FormEvent } from 'react';
import type { getMailServer } from '../../../api/services/agency-mail/mail-server.ts';
import { MAIL_PORTS } from '../../../common/schemas/branding-limits.ts';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';
import { fieldsToCorrect, issueFields, withoutError } from '../../lib/form-errors.ts';
import { toast } from '../../lib/toasts.ts';

type MailSettings = Awaited<ReturnType<typeof getMailServer>>;
type TestResult = { sent: boolean; to: string; error: string | null; said: string };

const SECURITY_LABELS = { tls: 'TLS (usually port 465)', starttls: 'STARTTLS (usually port 587)', none: 'None (not recommended)' } as const;

/** The mail server form's fields, named short for the toast. */
const SERVER_LABELS: Record<string, string> = { host: 'SMTP host', port: 'Port', security: 'Security', fromAddress: 'Send from', username: 'User name', password: 'Password' };
const OFFLINE = 'Could not reach LocalRank. Please check your connection and try again.';

// The route's schema brings zod (about 25 KB gzip): fetched when the form is first saved, not
// with the screen (issue 47). A failed fetch is tried again on the next save.
let schema: Promise<typeof import('../../../common/schemas/branding.ts')['mailServerSchema']> | null = null;
function loadMailServerSchema() {
  schema ??= import('../../../common/schemas/branding.ts').then(
    (m) => m.mailServerSchema,
    (error: unknown) => {
      schema = null;
      throw error;
    },
  );
  return schema;
}

export default function MailServerSection() {
  const [settings, setSettings] = useState<MailSettings | null>(null);
  const [editing, setEditing] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<'save' | 'test' | 'remove' | null>(null);

  useEffect(() => {
    apiRequest<MailSettings>('GET', '/api/branding/mail-server').then(setSettings, () => setSettings(null));
  }, []);
  if (!settings) return null;
  const { server } = settings;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
    // A blank password field keeps the stored one.
    const { password, ...rest } = data;
    // The route's schema, so the form says what the server would, before it is asked.
    let mailServerSchema;
    try {
      mailServerSchema = await loadMailServerSchema();
    } catch {
      toast({ title: 'Could Not Save', description: OFFLINE, variant: 'destructive' });
      return;
    }
    const parsed = mailServerSchema.safeParse({ ...rest, ...(password ? { password } : {}) });
    if (!parsed.success) {
      const fields = issueFields(parsed.error.issues);
      setErrors(fields);
      toast({ title: 'Could Not Save', description: fieldsToCorrect(fields, SERVER_LABELS), variant: 'destructive' });
      return;
    }
    setBusy('save');
    try {
      const saved = await apiRequest<MailSettings>('PUT', '/api/branding/mail-server', { ...rest, ...(password ? { password } : {}) });
      setSettings(saved);
      setErrors({});
      setEditing(false);
      toast({ title: 'Mail Server Saved', description: 'Send a test to check that it accepts mail from us.' });
    } catch (error) {
      const fields = error instanceof ApiError ? error.details.fields : undefined;
      setErrors(fields ?? {});
      toast({ title: 'Could Not Save', description: fields ? fieldsToCorrect(fields, SERVER_LABELS) : messageOf(error, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  async function test() {
    setBusy('test');
    try {
      const result = await apiRequest<TestResult>('POST', '/api/branding/mail-server/test');
      if (result.sent) toast({ title: 'Test Sent', description: `A test message went to ${result.to}. ${result.said}` });
      else toast({ title: 'Test Failed', description: result.error ?? 'The server refused the message.', variant: 'destructive' });
      setSettings(await apiRequest<MailSettings>('GET', '/api/branding/mail-server'));
    } catch (error) {
      toast({ title: 'Test Failed', description: messageOf(error, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!window.confirm('Stop sending through your own mail server?')) return;
    setBusy('remove');
    try {
      setSettings(await apiRequest<MailSettings>('DELETE', '/api/branding/mail-server'));
    } finally {
      setBusy(null);
    }
  }

  const field = (name: string, label: string, props: Record<string, unknown> = {}) => (
    <div className="field">
      <label htmlFor={`ms-${name}`}>{label}</label>
      <input id={`ms-${name}`} name={name} className="input" aria-invalid={errors[name] ? true : undefined} aria-describedby={errors[name] ? `ms-${name}-error` : undefined} {...props} />
      {errors[name] && <p className="field-error" id={`ms-${name}-error`}>{errors[name]}</p>}
    </div>
  );

  return (
    <section className="card mail-server" aria-labelledby="ms-title" data-testid="mail-server">
      <h2 className="card-title" id="ms-title">Sending e-mail</h2>
      {server ? (
        <p>
          Your clients' reports leave from <strong>{server.fromAddress}</strong> through {server.host}:{server.port}.{' '}
          {server.unavailableSince ? (
            <span className="field-error" role="alert">
              Your clients' reports have been waiting for this server since {new Date(server.unavailableSince).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC. {server.lastError} Once it is fixed, send a test: the waiting reports then go out at once.
            </span>
          ) : server.lastError ? (
            <span className="field-error" role="alert">Last attempt failed: {server.lastError}</span>
          ) : server.testedAt ? (
            <span className="muted">Last test went out on {new Date(server.testedAt).toLocaleString('en-US')}.</span>
          ) : (
            <span className="muted">Not tested yet.</span>
          )}
        </p>
      ) : (
        <p className="muted">
          Your clients' reports leave under your name from <strong>{settings.fallbackFrom}</strong>, replies going to your contact e-mail. Add your own mail server to send them from your domain.
        </p>
      )}
      {editing ? (
        <form className="cf" onSubmit={save} onInput={(e) => setErrors((now) => withoutError(now, (e.target as HTMLInputElement).name))} noValidate aria-busy={busy === 'save'}>
          <div className="cf-grid">
            {field('host', 'SMTP host', { defaultValue: server?.host ?? '', placeholder: 'smtp.youragency.com', required: true, autoComplete: 'off' })}
            {field('port', `Port (${MAIL_PORTS.join(', ')})`, { type: 'number', inputMode: 'numeric', defaultValue: server?.port ?? 587, required: true })}
            <div className="field">
              <label htmlFor="ms-security">Security</label>
              <select id="ms-security" name="security" className="input" defaultValue={server?.security ?? 'starttls'} aria-invalid={errors.security ? true : undefined}>
                {Object.entries(SECURITY_LABELS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
              </select>
              {errors.security && <p className="field-error">{errors.security}</p>}
            </div>
            {field('fromAddress', 'Send from (an address of your domain)', { type: 'email', defaultValue: server?.fromAddress ?? '', placeholder: 'reports@youragency.com', required: true })}
            {field('username', 'User name', { defaultValue: server?.username ?? '', autoComplete: 'off' })}
            {field('password', server?.hasPassword ? 'Password (leave blank to keep the stored one)' : 'Password', { type: 'password', autoComplete: 'new-password', disabled: !settings.canStorePassword })}
          </div>
          {!settings.canStorePassword && <p className="muted small">This server cannot store passwords (the operator has not set a key for them): use a server that accepts mail without a password, such as a relay that trusts this server.</p>}
          <div className="cf-actions">
            <button type="button" className="btn btn-ghost" onClick={() => setEditing(false)}>Cancel</button>
            <button type="submit" className="btn btn-primary" disabled={busy !== null}>{busy === 'save' ? 'Saving...' : 'Save Mail Server'}</button>
          </div>
        </form>
      ) : (
        <div className="cf-actions">
          {server && <button type="button" className="btn btn-ghost" onClick={() => void remove()} disabled={busy !== null}>Remove</button>}
          {server && <button type="button" className="btn btn-secondary" onClick={() => void test()} disabled={busy !== null}>{busy === 'test' ? 'Sending...' : 'Send a test'}</button>}
          <button type="button" className="btn btn-secondary" onClick={() => setEditing(true)}>{server ? 'Edit Mail Server' : 'Use My Own Mail Server'}</button>
        </div>
      )}
    </section>
  );
}
