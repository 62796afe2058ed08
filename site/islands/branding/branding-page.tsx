// /branding: an agency's branding profiles (Branding Settings). Each has a name, colours checked
// for readable contrast, contact details, a footer, a logo (re-encoded by the server) and whether
// "Powered by LocalRank" shows; one is the default, the rest are chosen per client. Without the
// Agency plan the page is the upgrade card, known from the session before any call (decision 0226).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { BrandingProfile } from '../../../api/services/branding/profiles.ts';
import { BRAND_COLOURS } from '../../../common/constants.ts';
import { paletteChanges } from '../../../api/report/model/branding.ts';
import { contrastRatio, MIN_CONTRAST, textOn } from '../../../common/colour.ts';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '../../../common/schemas/branding-limits.ts';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';
import { fieldsToCorrect, withoutError } from '../../lib/form-errors.ts';
import { screenAccess } from '../../lib/plan-access.ts';
import { toast } from '../../lib/toasts.ts';
import { AccessError } from '../clients/clients-page.tsx';
import { LockedScreen, refusalLock, type Lock } from '../ui/locked-screen.tsx';
import { Loading } from '../dashboard/dashboard-states.tsx';
import '../dashboard/dashboard.css';
import '../clients/clients.css';
import BrandingPreview, { type PreviewValues } from './branding-preview.tsx';
import DomainPanel from './domain-panel.tsx';
import MailServerSection from './mail-server-section.tsx';
import './branding.css';

export type Profile = BrandingProfile;

type State = { status: 'loading' } | { status: 'ready'; profiles: Profile[] } | { status: 'error'; error: unknown } | { status: 'locked'; lock: Lock };
const COLOURS = [
  ['primaryColor', 'Primary colour', 'Headings, the score ring and buttons.'],
  ['secondaryColor', 'Secondary colour', 'The header band and dark text accents.'],
  ['accentColor', 'Accent colour', 'Highlights and charts.'],
] as const;

/** The profile form's fields, named short for the toast. */
const PROFILE_LABELS: Record<string, string> = {
  companyName: 'Company name',
  primaryColor: 'Primary colour',
  secondaryColor: 'Secondary colour',
  accentColor: 'Accent colour',
  contactEmail: 'Contact e-mail',
  contactPhone: 'Contact phone',
  website: 'Website',
  footerText: 'Footer text',
  logo: 'Logo',
};

export default function BrandingPage() {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [editing, setEditing] = useState<Profile | 'new' | null>(null);
  const reload = () =>
    apiRequest<{ profiles: Profile[] }>('GET', '/api/branding-profiles')
      .then(({ profiles }) => setState({ status: 'ready', profiles }))
      .catch(async (error: unknown) => {
        const lock = await refusalLock(error, 'whiteLabel');
        setState(lock ? { status: 'locked', lock } : { status: 'error', error });
      });

  useEffect(() => {
    void screenAccess('whiteLabel').then((access) => (access.status === 'locked' ? setState({ status: 'locked', lock: access.access }) : reload()));
  }, []);

  if (state.status === 'loading') return <Loading />;
  if (state.status === 'locked') return <LockedScreen feature="whiteLabel" lock={state.lock} title="Branding" />;
  if (state.status === 'error') return <AccessError error={state.error} title="Branding" feature="whiteLabel" />;

  async function remove(p: Profile) {
    if (!window.confirm(`Delete the branding profile “${p.companyName}”?${p.clients ? ` Its ${p.clients} client${p.clients === 1 ? '' : 's'} will get the default profile.` : ''}`)) return;
    try {
      await apiRequest('DELETE', `/api/branding-profiles/${p.id}`);
      toast({ title: 'Profile Deleted', description: `${p.companyName} is deleted.` });
      void reload();
    } catch (error) {
      toast({ title: 'Delete Failed', description: messageOf(error, 'Please try again.'), variant: 'destructive' });
    }
  }

  return (
    <div className="dash container clients branding" data-testid="branding">
      <header className="dash-head">
        <div>
          <p className="eyebrow">White-label</p>
          <h1>Branding Settings</h1>
          <p className="muted">Your clients' reports, e-mails, score cards and online pages carry the profile's name, logo and colours, not ours.</p>
        </div>
        <nav className="dash-nav" aria-label="Branding">
          <a className="btn btn-secondary" href="/clients">Clients</a>
          <button type="button" className="btn btn-primary" onClick={() => setEditing('new')} disabled={editing !== null}>New Profile</button>
        </nav>
      </header>

      {editing && <ProfileForm profile={editing === 'new' ? null : editing} onCancel={() => setEditing(null)} onSaved={() => { setEditing(null); void reload(); }} />}

      {state.profiles.length === 0 && !editing ? (
        <section className="card clients-empty-card">
          <p className="clients-empty">No branding profile yet. Create one with your agency's name, logo and colours: it becomes the default for every client.</p>
        </section>
      ) : (
        <div className="profile-grid">
          {state.profiles.map((p) => (
            <article key={p.id} className="card profile-card" data-testid="profile-card">
              <div className="profile-band" style={{ background: p.secondaryColor, color: textOn(p.secondaryColor) }}>
                {p.logoUrl ? <img src={p.logoUrl} alt={`${p.companyName} logo`} height={36} /> : <span className="profile-mark" style={{ background: p.primaryColor, color: textOn(p.primaryColor) }}>{p.companyName.slice(0, 1)}</span>}
                <strong>{p.companyName}</strong>
              </div>
              <div className="profile-body">
                <p className="swatches" aria-label="Colours">
                  {[p.primaryColor, p.secondaryColor, p.accentColor].map((c) => <span key={c} className="swatch-lg" style={{ background: c }} title={c} />)}
                </p>
                <p className="muted small">{p.isDefault ? 'Default profile · ' : ''}{p.clients} client{p.clients === 1 ? '' : 's'}{p.poweredBy ? ' · Powered by LocalRank shown' : ''}</p>
                <div className="cf-actions">
                  <button type="button" className="btn btn-secondary" onClick={() => setEditing(p)} disabled={editing !== null}>Edit</button>
                  <button type="button" className="btn btn-ghost" onClick={() => void remove(p)}>Delete</button>
                </div>
                <DomainPanel profileId={p.id} domain={p.domain} released={p.domainReleased} onChanged={() => void reload()} />
              </div>
            </article>
          ))}
        </div>
      )}

      <MailServerSection />
    </div>
  );
}

function ProfileForm({ profile, onCancel, onSaved }: { profile: Profile | null; onCancel: () => void; onSaved: () => void }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [colours, setColours] = useState({
    primaryColor: profile?.primaryColor ?? BRAND_COLOURS.primary,
    secondaryColor: profile?.secondaryColor ?? BRAND_COLOURS.secondary,
    accentColor: profile?.accentColor ?? BRAND_COLOURS.accent,
  });
  const [logo, setLogo] = useState<File | null>(null);
  const [logoData, setLogoData] = useState<string | undefined>(undefined);
  const form = useRef<HTMLFormElement>(null);
  const fieldsOf = (f: HTMLFormElement | null) => {
    const data = (f ? Object.fromEntries(new FormData(f)) : {}) as Record<string, string>;
    return {
      companyName: data.companyName ?? profile?.companyName ?? '',
      contactEmail: data.contactEmail ?? profile?.contactEmail ?? '',
      contactPhone: data.contactPhone ?? profile?.contactPhone ?? '',
      website: data.website ?? profile?.website ?? '',
      footerText: data.footerText ?? profile?.footerText ?? '',
      isDefault: f ? data.isDefault === 'on' : (profile?.isDefault ?? false),
      poweredBy: f ? data.poweredBy === 'on' : (profile?.poweredBy ?? false),
    };
  };
  const [fields, setFields] = useState(() => fieldsOf(null));
  const { isDefault: _isDefault, ...shown } = fields;
  const previewValues: PreviewValues = { ...shown, ...colours, ...(profile ? { profileId: profile.id } : {}), ...(logoData ? { logo: logoData } : {}) };

  function chooseLogo(file: File | null) {
    setLogo(file);
    setLogoData(undefined);
    if (!file || file.size > LOGO_MAX_BYTES) return;
    const reader = new FileReader();
    reader.onload = () => setLogoData(String(reader.result));
    reader.readAsDataURL(file);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { ...fieldsOf(event.currentTarget), ...colours };
    setBusy(true);
    try {
      const saved = await apiRequest<Profile>(profile ? 'PUT' : 'POST', profile ? `/api/branding-profiles/${profile.id}` : '/api/branding-profiles', body);
      if (logo) {
        const res = await fetch(`/api/branding-profiles/${saved.id}/logo`, { method: 'PUT', credentials: 'include', headers: { 'Content-Type': logo.type }, body: logo });
        if (!res.ok) throw new ApiError(res.status, res.statusText, await res.text());
      }
      toast({ title: 'Branding Saved', description: `${saved.companyName} is ready for your clients' reports.` });
      onSaved();
    } catch (error) {
      const fields = error instanceof ApiError ? error.details.fields : undefined;
      setErrors(fields ?? {});
      toast({ title: 'Could Not Save', description: fields ? fieldsToCorrect(fields, PROFILE_LABELS) : messageOf(error, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  async function dropLogo() {
    if (!profile) return;
    await apiRequest('DELETE', `/api/branding-profiles/${profile.id}/logo`);
    toast({ title: 'Logo Removed', description: 'The profile now shows its name without a logo.' });
    onSaved();
  }

  const field = (name: string, label: string, props: Record<string, unknown> = {}) => (
    <div className="field">
      <label htmlFor={`bp-${name}`}>{label}</label>
      <input id={`bp-${name}`} name={name} className="input" aria-invalid={errors[name] ? true : undefined} aria-describedby={errors[name] ? `bp-${name}-error` : undefined} {...props} />
      {errors[name] && <p className="field-error" id={`bp-${name}-error`}>{errors[name]}</p>}
    </div>
  );

  return (
    <div className="branding-editor">
    <form ref={form} className="card cf" onSubmit={submit} onInput={(e) => { setFields(fieldsOf(form.current)); setErrors((now) => withoutError(now, (e.target as HTMLElement).id.replace(/^bp-/, ''))); }} noValidate aria-busy={busy} aria-labelledby="bp-title">
      <h2 className="card-title" id="bp-title">{profile ? `Edit ${profile.companyName}` : 'New branding profile'}</h2>
      <div className="cf-grid">
        {field('companyName', 'Company name (shown instead of LocalRank)', { required: true, defaultValue: profile?.companyName, autoComplete: 'organization' })}
        <div className="field">
          <label htmlFor="bp-logo">Logo (PNG, JPEG or WebP, up to {LOGO_MAX_BYTES / 1024 / 1024} MB)</label>
          <input id="bp-logo" type="file" accept={LOGO_TYPES.join(',')} className="input" aria-invalid={errors.logo ? true : undefined} onChange={(e) => chooseLogo(e.target.files?.[0] ?? null)} />
          {errors.logo && <p className="field-error">{errors.logo}</p>}
          {profile?.logoUrl && !logo && <p className="muted small">Current: <img src={profile.logoUrl} alt="Current logo" height={24} className="logo-thumb" /> <button type="button" className="btn-link" onClick={() => void dropLogo()}>Remove logo</button></p>}
        </div>
      </div>
      <fieldset className="colour-grid">
        <legend>Colours</legend>
        {COLOURS.map(([key, label, hint]) => {
          const value = colours[key];
          const ratio = contrastRatio(value, textOn(value));
          return (
            <div className="field" key={key}>
              <label htmlFor={`bp-${key}`}>{label}</label>
              <div className="colour-row">
                <input type="color" aria-label={`${label} picker`} value={value} onChange={(e) => setColours({ ...colours, [key]: e.target.value.toUpperCase() })} />
                <input id={`bp-${key}`} className="input" value={value} aria-invalid={errors[key] ? true : undefined} onChange={(e) => setColours({ ...colours, [key]: e.target.value })} pattern="#[0-9A-Fa-f]{6}" />
                <span className="colour-sample" style={{ background: value, color: textOn(value) }}>Aa</span>
              </div>
              <p className="muted small">{hint}{ratio < MIN_CONTRAST && ` Text on it will be hard to read (contrast ${ratio.toFixed(1)}:1, below ${MIN_CONTRAST}:1); we use ${textOn(value) === '#FFFFFF' ? 'white' : 'dark'} text for the best legibility.`}</p>
              {errors[key] && <p className="field-error">{errors[key]}</p>}
            </div>
          );
        })}
      </fieldset>
      <PaletteWarning colours={colours} />
      <div className="cf-grid">
        {field('contactEmail', 'Contact e-mail (replies go here)', { type: 'email', defaultValue: profile?.contactEmail ?? '', autoComplete: 'email' })}
        {field('contactPhone', 'Contact phone', { type: 'tel', defaultValue: profile?.contactPhone ?? '', autoComplete: 'tel' })}
        {field('website', 'Website', { type: 'url', defaultValue: profile?.website ?? '', placeholder: 'https://youragency.com' })}
        {field('footerText', 'Footer text (every page and e-mail)', { defaultValue: profile?.footerText ?? '', placeholder: 'Northstar Marketing · 500 Main St, Austin, TX' })}
      </div>
      <label className="checkbox"><input type="checkbox" name="isDefault" defaultChecked={profile?.isDefault ?? false} disabled={profile?.isDefault} /> Default profile for clients without one</label>
      <label className="checkbox"><input type="checkbox" name="poweredBy" defaultChecked={profile?.poweredBy ?? false} /> Show “Powered by LocalRank”</label>
      <div className="cf-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>Cancel</button>
        <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Saving...' : 'Save Profile'}</button>
      </div>
    </form>
    <BrandingPreview values={previewValues} />
    </div>
  );
}

/** What the reports' palette will do to these colours (api/report/model/branding.ts themeOf), before saving. */
function PaletteWarning({ colours }: { colours: { primaryColor: string; accentColor: string } }) {
  const valid = /^#[0-9A-Fa-f]{6}$/;
  if (!valid.test(colours.primaryColor) || !valid.test(colours.accentColor)) return null;
  const changes = paletteChanges(colours);
  if (changes.length === 0) return null;
  return (
    <div className="palette-warning" role="status" data-testid="palette-warning">
      <p><strong>So that every report stays readable, these colours will be adjusted:</strong></p>
      <ul>{changes.map((c) => <li key={c}>{c}</li>)}</ul>
      <p className="muted small">Large areas behind text (the header band) keep your colour, with white or dark text on it, whichever reads.</p>
    </div>
  );
}
