// Adding or editing a client: the addressee (name, e-mail, notes), how often the report goes out,
// the branding profile (agency), and the business in the report form's fields. The server
// validates with the report form's rules and answers per field; those messages show under each.
import { useState, type FormEvent, type ReactNode } from 'react';
import { AddressFields } from '../ui/address-fields.tsx';
import { REPORT_FREQUENCIES } from '../../../common/schemas/client-frequencies.ts';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';
import { FREQUENCY_LABELS, type ClientSummary, type ProfileOption } from './clients-data.ts';
import { withoutError } from '../../lib/form-errors.ts';

type Errors = Record<string, string>;

function Field({ name, label, error, wide, children }: { name: string; label: string; error?: string; wide?: boolean; children: (a: Record<string, string | boolean | undefined>) => ReactNode }) {
  const id = `cf-${name}`;
  return (
    <div className={wide ? 'field cf-wide' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, name, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined })}
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

export default function ClientForm({ client, profiles, onSaved, onCancel }: { client?: ClientSummary; profiles: ProfileOption[] | null; onSaved: (c: ClientSummary) => void; onCancel: () => void }) {
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const editing = Boolean(client);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
    const payload: Record<string, unknown> = { ...data, brandingProfileId: data.brandingProfileId || null };
    if (profiles === null) delete payload.brandingProfileId;
    if (editing) for (const key of ['company', 'website', 'address', 'city', 'state', 'zip']) delete payload[key];
    setBusy(true);
    try {
      const saved = await apiRequest<ClientSummary>(editing ? 'PATCH' : 'POST', editing ? `/api/clients/${client!.id}` : '/api/clients', payload);
      toast({ title: editing ? 'Client Updated' : 'Client Added', description: editing ? `${saved.clientName} is saved.` : `The first report for ${saved.business?.company} is on its way to ${saved.clientEmail}.` });
      onSaved(saved);
    } catch (error) {
      const fields = error instanceof ApiError ? error.details.fields : undefined;
      setErrors(fields ?? {});
      toast({ title: editing ? 'Update Failed' : 'Could Not Add Client', description: fields ? 'Please check the highlighted fields.' : messageOf(error, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  const text = (name: string, autoComplete: string, type = 'text') => ({ type, autoComplete, className: 'input', required: true, defaultValue: (client?.business as Record<string, string> | null)?.[name] });
  return (
    <form className="card cf" onSubmit={submit} noValidate aria-busy={busy} aria-labelledby="cf-title" onInput={(e) => setErrors((now) => withoutError(now, (e.target as unknown as HTMLInputElement).name))}>
      <h2 id="cf-title" className="card-title">{editing ? `Edit ${client!.clientName}` : 'Add a client'}</h2>
      <fieldset className="cf-grid">
        <legend>Who receives the reports</legend>
        <Field name="clientName" label="Client name" error={errors.clientName}>{(a) => <input {...a} className="input" required autoComplete="name" defaultValue={client?.clientName} placeholder="Dana Whitfield" />}</Field>
        <Field name="clientEmail" label="Client e-mail" error={errors.clientEmail}>{(a) => <input {...a} className="input" type="email" required autoComplete="email" defaultValue={client?.clientEmail} placeholder="dana@theirbusiness.com" />}</Field>
        <Field name="reportFrequency" label="Scheduled report" error={errors.reportFrequency}>
          {(a) => (
            <select {...a} className="select" defaultValue={client?.reportFrequency ?? 'monthly'}>
              {REPORT_FREQUENCIES.map((f) => <option key={f} value={f}>{FREQUENCY_LABELS[f]}</option>)}
            </select>
          )}
        </Field>
        {profiles !== null && (
          <Field name="brandingProfileId" label="Branding profile" error={errors.brandingProfileId}>
            {(a) => (
              <select {...a} className="select" defaultValue={client?.brandingProfileId ?? ''}>
                <option value="">Agency default</option>
                {profiles.map((p) => <option key={p.id} value={p.id}>{p.companyName}{p.isDefault ? ' (default)' : ''}</option>)}
              </select>
            )}
          </Field>
        )}
        <Field name="notes" label="Notes (only you see these)" error={errors.notes} wide>{(a) => <textarea {...a} className="textarea" rows={2} defaultValue={client?.notes ?? ''} />}</Field>
      </fieldset>
      {!editing && (
        <fieldset className="cf-grid">
          <legend>The business to report on</legend>
          <Field name="company" label="Company name" error={errors.company}>{(a) => <input {...a} {...text('company', 'organization')} placeholder="Whitfield Dental" />}</Field>
          <Field name="website" label="Business website" error={errors.website}>{(a) => <input {...a} {...text('website', 'url', 'url')} placeholder="https://www.theirbusiness.com" />}</Field>
          <AddressFields Field={Field} errors={errors} values={client?.business as Record<string, string> | undefined} pairClass="cf-pair" />
        </fieldset>
      )}
      <div className="cf-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>Cancel</button>
        <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Saving...' : editing ? 'Save Changes' : 'Add Client and Send First Report'}</button>
      </div>
    </form>
  );
}
