// An e-mail address that, when it must wrap (a long address on a phone), wraps after the "@"
// rather than before its last letter.
export default function BreakableEmail({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at < 0) return <>{email}</>;
  return <>{email.slice(0, at + 1)}<wbr />{email.slice(at + 1)}</>;
}
