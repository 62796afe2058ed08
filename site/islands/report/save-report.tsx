// 'Save to my account' on the online report: the signed link proves the e-mail, the session says
// whose account. The server decides; this only shows the answer. Hydrated on first use
// (client:interaction): a press before then is a held submit of the form, made again once the
// island is ready, never lost (a click on a bare button before hydration did nothing).
import { useState } from 'react';
import { apiRequest, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';

interface Props {
  token: string;
  businessId: string;
  initiallySaved: boolean;
}

export default function SaveReport({ token, businessId, initiallySaved }: Props) {
  const [saved, setSaved] = useState(initiallySaved);
  const [busy, setBusy] = useState(false);

  async function save(event: { preventDefault: () => void }) {
    event.preventDefault();
    setBusy(true);
    try {
      await apiRequest('POST', `/api/reports/${encodeURIComponent(token)}/save`);
      setSaved(true);
      toast({ title: 'Report saved', description: 'This business is now in your account.' });
    } catch (error) {
      toast({ title: 'Could not save the report', description: messageOf(error, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  if (saved) {
    return (
      <a className="btn btn-secondary" href={`/dashboard/${businessId}`}>
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="#047857" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round"><path d="M20 6 9 17l-5-5" /></svg>
        Saved to your account
      </a>
    );
  }
  return (
    <form onSubmit={save}>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {busy ? 'Saving...' : 'Save to my account'}
      </button>
    </form>
  );
}
