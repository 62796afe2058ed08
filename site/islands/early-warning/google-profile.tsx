// The connected Google Business Profile on Early Warning (issue 48): "Connect Google Business
// Profile" when it is not, else every review from the profile, newest first, each with its answer
// and a form to write or change it (posted to Google; Google's reason shown when it refuses).
import { useEffect, useState, type FormEvent } from 'react';
import { ratingColour } from '../../../common/constants.ts';
import { REPLY_MAX_BYTES } from '../../../common/schemas/google-profile.ts';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';
import { fmtDate } from '../dashboard/dashboard-data.ts';
import { fmtRating } from './early-warning-data.ts';
import type { ProfileReview } from '../../../common/schemas/google-profile.ts';


export interface ProfileAnswer {
  connectable: boolean;
  connectUrl: string;
  label: string;
  connection: { status: 'connected' | 'disconnected' | 'sample'; title: string; sample: boolean; lastPolledAt: string | null; lastError: string | null } | null;
  reviewCount: number;
  averageRating: number | null;
  reviews: ProfileReview[];
  nextCursor: string | null;
}

const path = (businessId: string) => `/api/business/${encodeURIComponent(businessId)}/google-profile`;

export default function GoogleProfile({ businessId }: { businessId: string }) {
  const [answer, setAnswer] = useState<ProfileAnswer | null>(null);
  const [more, setMore] = useState(false);

  useEffect(() => {
    apiRequest<ProfileAnswer>('GET', `${path(businessId)}?limit=10`)
      .then(setAnswer)
      .catch(() => setAnswer(null));
  }, [businessId]);

  if (!answer) return null;
  const c = answer.connection;
  if (!c || c.status === 'disconnected') {
    if (!answer.connectable) return null;
    return (
      <section className="card block gp-connect" aria-labelledby="gp-title" data-testid="gp-connect">
        <h2 className="card-title" id="gp-title">{c ? 'Google Business Profile disconnected' : 'See every Google review'}</h2>
        <p className="muted">
          {c
            ? 'Google no longer accepts our access to your profile, so new Google reviews are not read. Connect it again to resume.'
            : 'Connect your Google Business Profile and Early Warning reads every review from it, newest first, within minutes of it being posted, and you can answer them here.'}
        </p>
        <a className="btn btn-primary" href={answer.connectUrl}>Connect Google Business Profile</a>
      </section>
    );
  }

  async function loadMore() {
    if (!answer?.nextCursor) return;
    setMore(true);
    try {
      const next = await apiRequest<ProfileAnswer>('GET', `${path(businessId)}?limit=10&cursor=${encodeURIComponent(answer.nextCursor)}`);
      setAnswer({ ...answer, reviews: [...answer.reviews, ...next.reviews], nextCursor: next.nextCursor });
    } catch (error) {
      toast({ title: 'Could not load more reviews', description: messageOf(error, 'Please try again.'), variant: 'destructive' });
    } finally {
      setMore(false);
    }
  }

  const replace = (r: ProfileReview) => setAnswer({ ...answer, reviews: answer.reviews.map((x) => (x.id === r.id ? r : x)) });
  return (
    <section className="card flush block" aria-labelledby="gp-title" data-testid="gp-reviews">
      <h2 className="card-title padded" id="gp-title">
        Google Reviews <span className="count" data-testid="gp-count">{answer.reviewCount}</span>
      </h2>
      <p className="gp-source">
        {c.sample ? <strong>Sample Business Profile: example reviews, not your real profile. </strong> : null}
        Every review {answer.label}, <strong>{c.title}</strong>, newest first{c.lastPolledAt ? `; read ${fmtDate(Date.parse(c.lastPolledAt))}` : ''}.
        {c.lastError && <span className="gp-error"> Last read: {c.lastError}</span>}
      </p>
      <ul className="ew-alerts" data-testid="gp-list">
        {answer.reviews.map((r) => (
          <Review key={r.id} businessId={businessId} review={r} onChange={replace} />
        ))}
      </ul>
      {answer.nextCursor && (
        <p className="gp-more">
          <button className="btn btn-secondary" type="button" onClick={() => void loadMore()} disabled={more}>
            {more ? 'Loading...' : 'Show More Reviews'}
          </button>
        </p>
      )}
    </section>
  );
}

function Review({ businessId, review, onChange }: { businessId: string; review: ProfileReview; onChange: (r: ProfileReview) => void }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(review.reply?.text ?? '');
  const [error, setError] = useState<string | null>(review.replyError);
  const [pending, setPending] = useState(false);
  const url = `${path(businessId)}/reviews/${encodeURIComponent(review.id)}/reply`;

  async function send(e: FormEvent) {
    e.preventDefault();
    setPending(true);
    try {
      const saved = await apiRequest<ProfileReview>('PUT', url, { text });
      onChange(saved);
      setError(null);
      setOpen(false);
      toast({ title: 'Answer Posted', description: 'Your answer is on Google.' });
    } catch (err) {
      const reason = err instanceof ApiError ? (err.details.fields?.text ?? err.details.message) : undefined;
      setError(reason ?? messageOf(err, 'The answer was not posted.'));
    } finally {
      setPending(false);
    }
  }

  async function remove() {
    setPending(true);
    try {
      onChange(await apiRequest<ProfileReview>('DELETE', url));
      setText('');
      setError(null);
    } catch (err) {
      setError(messageOf(err, 'The answer was not removed.'));
    } finally {
      setPending(false);
    }
  }

  const id = `gp-answer-${review.id}`;
  return (
    <li className={`ew-alert${review.removed ? ' gp-removed' : ''}`} data-testid="gp-review">
      <div className="ew-alert-top">
        <span className={`rating rating-${ratingColour(review.rating)}`} aria-label={`Rated ${fmtRating(review.rating)} stars`}>★ {fmtRating(review.rating)}</span>
        <span className="ew-author">{review.author ?? 'A Google user'}</span>
        {review.removed && <span className="ew-platform">Removed from Google</span>}
        <span className="ew-date">{fmtDate(Date.parse(review.createdAt))}{review.updatedAt !== review.createdAt ? ' (edited)' : ''}</span>
      </div>
      {review.text && <p className="ew-text">{review.text}</p>}
      {review.reply && !open && (
        <blockquote className="gp-reply" data-testid="gp-reply">
          <span className="label">Your answer</span>
          {review.reply.text}
        </blockquote>
      )}
      {!review.removed && !open && (
        <div className="gp-actions">
          <button className="btn btn-secondary" type="button" onClick={() => setOpen(true)}>{review.reply ? 'Edit Answer' : 'Answer'}</button>
          {review.reply && (
            <button className="btn btn-ghost" type="button" onClick={() => void remove()} disabled={pending}>Delete Answer</button>
          )}
        </div>
      )}
      {open && (
        <form className="gp-form" onSubmit={send} noValidate>
          <label className="label" htmlFor={id}>Your answer, posted on Google under your business's name</label>
          <textarea id={id} className="textarea" rows={3} maxLength={REPLY_MAX_BYTES} value={text} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} onChange={(e) => setText(e.target.value)} />
          <div className="gp-actions">
            <button className="btn btn-primary" type="submit" disabled={pending}>{pending ? 'Posting...' : 'Post Answer'}</button>
            <button className="btn btn-ghost" type="button" onClick={() => setOpen(false)}>Cancel</button>
          </div>
        </form>
      )}
      {error && <p className="field-error" id={`${id}-error`} role="alert">{error}</p>}
    </li>
  );
}
