// The live preview beside a branding profile's form: the server draws the unsaved values with the
// production renderers (the PDF's first page, the e-mail, the score card) a moment after the last
// edit; a slower answer to an older edit never replaces a newer one.
import { useEffect, useRef, useState } from 'react';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';

export interface PreviewValues {
  companyName: string;
  primaryColor: string;
  secondaryColor: string;
  accentColor: string;
  contactEmail: string;
  contactPhone: string;
  website: string;
  footerText: string;
  poweredBy: boolean;
  profileId?: string;
  /** A newly chosen logo, as a data URL. */
  logo?: string;
}

interface Preview {
  pdfPage: string;
  scoreCard: string;
  email: { from: string; replyTo: string | null; subject: string; html: string };
}

const TABS = [
  ['pdf', 'PDF, first page'],
  ['email', 'E-mail'],
  ['card', 'Score card'],
] as const;
export const PREVIEW_DELAY_MS = 600;

export default function BrandingPreview({ values }: { values: PreviewValues }) {
  const [tab, setTab] = useState<(typeof TABS)[number][0]>('pdf');
  const [preview, setPreview] = useState<Preview | null>(null);
  // The values the shown preview (or its note) answers; the preview is stale while they differ.
  const [answered, setAnswered] = useState<{ key: string | null; note: string | null }>({ key: null, note: null });
  const latest = useRef(0);
  const key = JSON.stringify(values);
  const status = { busy: answered.key !== key, note: answered.note };

  useEffect(() => {
    const id = ++latest.current;
    const timer = setTimeout(() => {
      apiRequest<Preview>('POST', '/api/branding-profiles/preview', JSON.parse(key))
        .then((p) => {
          if (id !== latest.current) return;
          setPreview(p);
          setAnswered({ key, note: null });
        })
        .catch((error: unknown) => {
          if (id !== latest.current) return;
          const note =
            error instanceof ApiError && error.status === 400
              ? `The preview waits for valid values: ${Object.values(error.details.fields ?? {})[0] ?? messageOf(error, 'check the form')}`
              : error instanceof ApiError && error.status === 429
                ? 'The preview pauses for a moment after many changes; it updates with your next edit.'
                : messageOf(error, 'The preview could not be drawn. It will try again with your next edit.');
          setAnswered({ key, note });
        });
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key]);

  return (
    <section className="card preview" aria-labelledby="preview-title" data-testid="branding-preview">
      <div className="preview-head">
        <h2 className="card-title" id="preview-title">Live preview</h2>
        <p className="muted small" role="status">{status.busy ? 'Updating…' : status.note ?? 'What your client sees, drawn from an example report.'}</p>
      </div>
      <div className="preview-tabs" role="tablist" aria-label="Preview">
        {TABS.map(([id, label]) => (
          <button key={id} type="button" role="tab" id={`preview-tab-${id}`} aria-selected={tab === id} aria-controls="preview-panel" className={`preview-tab${tab === id ? ' active' : ''}`} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>
      <div id="preview-panel" role="tabpanel" aria-labelledby={`preview-tab-${tab}`} className={`preview-panel${status.busy ? ' stale' : ''}`}>
        {!preview ? (
          <p className="muted preview-empty">Drawing the preview…</p>
        ) : tab === 'pdf' ? (
          <img src={preview.pdfPage} alt="The PDF report's first page in this branding" className="preview-page" />
        ) : tab === 'card' ? (
          <img src={preview.scoreCard} alt="The score card in this branding" className="preview-card" />
        ) : (
          <div className="preview-mail">
            <dl className="mail-head">
              <dt>From</dt>
              <dd>{preview.email.from}</dd>
              <dt>Reply-To</dt>
              <dd>{preview.email.replyTo ?? 'none'}</dd>
              <dt>Subject</dt>
              <dd>{preview.email.subject}</dd>
            </dl>
            <iframe title="The report e-mail in this branding" srcDoc={preview.email.html} sandbox="" className="mail-frame" />
          </div>
        )}
      </div>
    </section>
  );
}
