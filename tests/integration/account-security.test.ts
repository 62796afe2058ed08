// Account security through the API and the e-mails it sends (a real SMTP server receives them):
// forgot password, reset, e-mail confirmation, e-mail change, password change, sessions.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { FORGOT_PASSWORD_MESSAGE, verifyEmail } from '../../api/services/account-security.ts';
import { users } from '../../db/schema/auth.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser, uniqueEmail } from '../helpers/factories.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://app.example.com' });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
});

/** Runs the queued jobs and returns the mail received for one address since `before`. */
async function mailTo(address: string) {
  await createWorker(t.ctx, { registry: testRegistry({}) }).drain();
  return smtp.received.filter((m) => m.envelope.to.includes(address));
}
const linkIn = (text: string | undefined, path: string) => {
  const m = new RegExp(`https://app\\.example\\.com${path}\\?token=([^\\s"<]+)`).exec(text ?? '');
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return decodeURIComponent(m[1]!);
};
const login = (email: string, password: string) => call(t.app, 'POST', '/api/auth/login', { email, password });

describe('forgot password', () => {
  it('answers the same for an unknown address and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    const res = await call(t.app, 'POST', '/api/auth/forgot-password', { email });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, message: FORGOT_PASSWORD_MESSAGE });
    expect(await mailTo(email)).toHaveLength(0);
  });

  it('e-mails a single-use link that sets a new password and ends every session', async () => {
    const user = await createUser(t.ctx);
    const other = await login(user.email, user.password);
    expect(other.status).toBe(200);

    const res = await call(t.app, 'POST', '/api/auth/forgot-password', { email: user.email.toUpperCase() });
    expect(res.body).toEqual({ ok: true, message: FORGOT_PASSWORD_MESSAGE });
    const mail = (await mailTo(user.email)).filter((m) => m.parsed.subject === 'Reset your LocalRank password');
    expect(mail).toHaveLength(1);
    const token = linkIn(mail[0]!.parsed.text, '/reset-password');

    const tooShort = await call(t.app, 'POST', '/api/auth/reset-password', { token, newPassword: 'short' });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.fields.newPassword).toBe('Password must be at least 8 characters long');

    const reset = await call(t.app, 'POST', '/api/auth/reset-password', { token, newPassword: 'a-brand-new-secret' });
    expect(reset.status).toBe(200);
    expect(reset.headers.getSetCookie().join()).toMatch(/localrank_session=;/);
    // Both sessions ended; the old password no longer works, the new one does.
    expect((await call(t.app, 'GET', '/api/auth/me', undefined, user.cookie)).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/auth/me', undefined, other.cookie)).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    expect((await login(user.email, 'a-brand-new-secret')).status).toBe(200);

    const again = await call(t.app, 'POST', '/api/auth/reset-password', { token, newPassword: 'yet-another-secret' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This link has expired or was already used. Ask for a new one.');
  });

  it('refuses an expired link', async () => {
    const user = await createUser(t.ctx);
    await call(t.app, 'POST', '/api/auth/forgot-password', { email: user.email });
    const token = linkIn((await mailTo(user.email)).at(-1)!.parsed.text, '/reset-password');
    await t.ctx.db.$client.execute({ sql: "UPDATE verifications SET expires_at = ? WHERE identifier = ?", args: [Date.now() - 1000, `reset-password:${token}`] });
    const res = await call(t.app, 'POST', '/api/auth/reset-password', { token, newPassword: 'a-brand-new-secret' });
    expect(res.status).toBe(400);
    expect((await login(user.email, user.password)).status).toBe(200);
  });
});

describe('e-mail confirmation', () => {
  it('sends a link at sign-up; the account works before it and is confirmed by it', async () => {
    const email = uniqueEmail('fresh');
    const signup = await call(t.app, 'POST', '/api/auth/signup', { email, password: 'longenough', role: 'client' });
    expect(signup.status).toBe(201);
    expect(signup.body.user.emailVerified).toBe(false);
    const mail = (await mailTo(email)).filter((m) => m.parsed.subject === 'Confirm your e-mail address for LocalRank');
    expect(mail).toHaveLength(1);
    const token = linkIn(mail[0]!.parsed.text, '/verify-email');
    expect(await verifyEmail({ ctx: t.ctx, token, headers: new Headers({ cookie: signup.cookie }) })).toEqual({ status: 'verified', email });
    expect((await call(t.app, 'GET', '/api/auth/me', undefined, signup.cookie)).body.user.emailVerified).toBe(true);
    expect(await verifyEmail({ ctx: t.ctx, token: 'not-a-token', headers: new Headers() })).toEqual({ status: 'invalid' });
  });

  it('sends the link again on request, only while unconfirmed', async () => {
    const user = await createUser(t.ctx, { emailVerified: false });
    expect((await mailTo(user.email)).length).toBe(1);
    expect((await call(t.app, 'POST', '/api/auth/verification-email', undefined, user.cookie)).status).toBe(202);
    expect((await mailTo(user.email)).length).toBe(2);
    expect((await call(t.app, 'POST', '/api/auth/verification-email')).status).toBe(401);
  });
});

describe('change e-mail', () => {
  it('moves the account to the new address only when the link sent there is opened', async () => {
    const user = await createUser(t.ctx);
    const newEmail = uniqueEmail('moved');
    const res = await call(t.app, 'POST', '/api/auth/change-email', { newEmail }, user.cookie);
    expect(res.status).toBe(202);
    expect((await call(t.app, 'GET', '/api/auth/me', undefined, user.cookie)).body.user.email).toBe(user.email);
    const mail = (await mailTo(newEmail)).filter((m) => m.parsed.subject === 'Confirm your new LocalRank e-mail address');
    expect(mail).toHaveLength(1);
    const token = linkIn(mail[0]!.parsed.text, '/verify-email');
    expect(await verifyEmail({ ctx: t.ctx, token, headers: new Headers({ cookie: user.cookie }) })).toEqual({ status: 'verified', email: newEmail });
    const row = await t.ctx.db.query.users.findFirst({ where: eq(users.id, user.userId) });
    expect(row).toMatchObject({ email: newEmail, emailVerified: true });
    expect((await login(newEmail, user.password)).status).toBe(200);
    // The link is spent: the account no longer has the address it was issued for.
    expect(await verifyEmail({ ctx: t.ctx, token, headers: new Headers() })).toEqual({ status: 'invalid' });
  });

  it('answers the same when another account has the address, and changes nothing', async () => {
    const [a, b] = [await createUser(t.ctx), await createUser(t.ctx)];
    const before = (await mailTo(b.email)).length;
    const res = await call(t.app, 'POST', '/api/auth/change-email', { newEmail: b.email }, a.cookie);
    expect(res.status).toBe(202);
    expect((await mailTo(b.email)).length).toBe(before);
  });

  it('needs a session and a new address', async () => {
    const user = await createUser(t.ctx);
    expect((await call(t.app, 'POST', '/api/auth/change-email', { newEmail: uniqueEmail() })).status).toBe(401);
    const same = await call(t.app, 'POST', '/api/auth/change-email', { newEmail: user.email }, user.cookie);
    expect(same.status).toBe(400);
    expect(same.body.fields.newEmail).toBe('This is already your e-mail address');
  });
});

describe('change password and sessions', () => {
  it('lists the sessions, ends the others, and changes the password with the current one', async () => {
    const user = await createUser(t.ctx);
    const other = await login(user.email, user.password);
    const list = await call(t.app, 'GET', '/api/auth/security', undefined, user.cookie);
    expect(list.status).toBe(200);
    expect(list.body.sessions).toHaveLength(2);
    expect(list.body.sessions[0].current).toBe(true);
    expect(list.body).toMatchObject({ email: user.email, emailVerified: true });
    expect(JSON.stringify(list.body)).not.toMatch(/token/i);

    expect((await call(t.app, 'POST', '/api/auth/sessions/revoke-others', undefined, user.cookie)).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/auth/me', undefined, other.cookie)).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/auth/security', undefined, user.cookie)).body.sessions).toHaveLength(1);

    const wrong = await call(t.app, 'POST', '/api/auth/change-password', { currentPassword: 'not-it-at-all', newPassword: 'fresh-password-1' }, user.cookie);
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields.currentPassword).toBe('The current password is not correct');

    const third = await login(user.email, user.password);
    const changed = await call(t.app, 'POST', '/api/auth/change-password', { currentPassword: user.password, newPassword: 'fresh-password-1' }, user.cookie);
    expect(changed.status).toBe(200);
    // This browser keeps a session (a new cookie); the other one ended.
    expect((await call(t.app, 'GET', '/api/auth/me', undefined, changed.cookie)).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/auth/me', undefined, third.cookie)).status).toBe(401);
    expect((await login(user.email, 'fresh-password-1')).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/auth/security')).status).toBe(401);
  });
});
