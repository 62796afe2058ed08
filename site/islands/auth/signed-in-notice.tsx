import { useEffect } from 'react';
import { checkSession } from '../../lib/session.ts';
import { useSession } from '../../lib/use-session.ts';

/** On /login and /signup, a visitor who is already signed in is told so (the check is cached). */
export function SignedInNotice() {
  const session = useSession();
  useEffect(() => {
    void checkSession();
  }, []);
  if (session.status !== 'signed-in') return null;
  return (
    <p className="auth-notice" role="note">
      You're signed in as <strong>{session.user.email}</strong>. <a href="/account">Go to your account</a>
    </p>
  );
}
