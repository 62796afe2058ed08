// The wrapper of every protected screen: while the session check runs, a centred spinner with
// 'Loading...'; signed out, off to /login with a redirect back here; signed in, the screen.
import { useEffect, type ReactNode } from 'react';
import { loginFor } from '../../lib/auth-redirect.ts';
import { checkSession, type Viewer } from '../../lib/session.ts';
import { useSession } from '../../lib/use-session.ts';

export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner spinner-lg" aria-hidden="true" />
      <span>Loading...</span>
    </div>
  );
}

export default function Protected({ children }: { children: (viewer: Viewer) => ReactNode }) {
  const session = useSession();

  useEffect(() => {
    void checkSession();
  }, []);

  const loggedOut = session.status === 'signed-out' && session.loggedOut;
  useEffect(() => {
    if (session.status === 'signed-out' && !loggedOut) {
      window.location.replace(loginFor(window.location.pathname + window.location.search));
    }
  }, [session.status, loggedOut]);

  if (session.status !== 'signed-in') return <PageLoading />;
  return <>{children(session)}</>;
}
