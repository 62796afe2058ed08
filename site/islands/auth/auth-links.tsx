import { useEffect, useState } from 'react';
import { apiRequest } from '../../lib/api.ts';
import { checkSession, clearSession } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { useSession } from '../../lib/use-session.ts';

export default function AuthLinks() {
  const session = useSession();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void checkSession();
  }, []);

  async function logout() {
    setBusy(true);
    try {
      await apiRequest('POST', '/api/auth/logout');
      window.location.assign('/');
      clearSession();
    } catch {
      toast({ title: 'Logout failed', description: 'There was an error logging out. Please try again.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  if (session.status === 'loading') return <span className="auth-links-placeholder" aria-hidden="true" style={{ display: 'inline-block', width: 168, height: 44 }} />;
  if (session.status === 'signed-in') {
    return (
      <>
        <a className="btn btn-ghost" href="/account">Account</a>
        <button type="button" className="btn btn-secondary" onClick={logout} disabled={busy}>Logout</button>
      </>
    );
  }
  return (
    <>
      <a className="btn btn-ghost" href="/login">Sign In</a>
      <a className="btn btn-primary" href="/signup">Sign Up</a>
    </>
  );
}
