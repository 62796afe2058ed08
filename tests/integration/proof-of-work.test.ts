// Proof of work on the free-report form (issue 49, decision 0350), through the real route and
// database: below the thresholds nothing is asked; past a day's count from one /24, one /48 or
// one e-mail domain (a free-mail domain: one address), or with the day's budget nearly spent, the
// form gets a 400 under `altcha` with a challenge, which the browser's own solver answers; a
// solution is taken once, and an expired challenge is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordProviderCall } from '../../api/lib/provider-calls.ts';
import { CHALLENGE_TTL_MS, issueChallenge, POW_MESSAGES } from '../../api/services/proof-of-work.ts';
import { solvePow, type PowChallenge } from '../../site/lib/solve-pow.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { validForm } from '../helpers/report-requests.ts';

let t: TestContext;
beforeAll(async () => {
  // Two free reports a day from a network or a domain before the form pays; Place Details at
  // $25 per 1,000 with no allowance, against a budget of two calls.
  t = await createTestContext({
    TRUST_PROXY: 'true',
    POW_AFTER_PER_NETWORK: '2',
    POW_AFTER_PER_DOMAIN: '2',
    POW_BUDGET_SHARE: '0.8',
    PROVIDER_DAILY_BUDGET_USD: '0.05',
    PROVIDER_PRICES: JSON.stringify({ 'google.place_details.atmosphere': { usdPer1000: 25, freePerMonth: 0 } }),
  });
});
afterAll(() => t.close());

let seq = 0;
interface Answer {
  status: number;
  body: { requestId?: string; fields?: Record<string, string>; challenge?: PowChallenge };
}
async function submit(ip: string, email: string, altcha?: string): Promise<Answer> {
  const body = { ...validForm({ email, company: `Proof Plumbing ${++seq}` }), ...(altcha ? { altcha } : {}) };
  const res = await t.app.request('/api/submit-request', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}
/** A 400 asking for a proof of work, with the message under the field and a challenge to solve. */
function asksForProof(answer: Answer, message: string = POW_MESSAGES.missing) {
  expect(answer.status).toBe(400);
  expect(answer.body.fields).toEqual({ altcha: message });
  expect(answer.body.challenge?.parameters.keyPrefix).toMatch(/^[0-9a-f]+$/);
  return answer.body.challenge!;
}

describe('the free-report form past its thresholds', () => {
  it('asks one /24 for a proof of work after its day\'s count, which the browser solver pays; a solution is taken once', async () => {
    expect((await submit('203.0.113.5', 'ana@one.example')).status).toBe(202);
    expect((await submit('203.0.113.77', 'ben@two.example')).status).toBe(202);
    const challenge = asksForProof(await submit('203.0.113.200', 'cy@three.example'));
    // Another network is not asked anything.
    expect((await submit('198.51.100.1', 'di@four.example')).status).toBe(202);

    const solved = await solvePow(challenge);
    const paid = await submit('203.0.113.200', 'cy@three.example', solved);
    expect(paid.status).toBe(202);
    expect(paid.body.requestId).toEqual(expect.any(String));
    // The same solution again, for another request: refused, with a fresh challenge.
    asksForProof(await submit('203.0.113.9', 'ed@five.example', solved), POW_MESSAGES.used);
    // A key not derived from the challenge, or no solution at all.
    const forged = JSON.parse(atob(solved)) as { solution: { derivedKey: string } };
    forged.solution.derivedKey = forged.solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    asksForProof(await submit('203.0.113.9', 'ed@five.example', btoa(JSON.stringify(forged))), POW_MESSAGES.invalid);
    asksForProof(await submit('203.0.113.9', 'ed@five.example', 'not-a-solution'), POW_MESSAGES.invalid);
  });

  it('counts an IPv6 /48 as one network, however its addresses are written', async () => {
    expect((await submit('2001:db8:1::5', 'fa@six.example')).status).toBe(202);
    expect((await submit('2001:0db8:0001:ffff::9', 'gu@seven.example')).status).toBe(202);
    asksForProof(await submit('2001:db8:1:abcd::1', 'hu@eight.example'));
    expect((await submit('2001:db8:2::1', 'io@nine.example')).status).toBe(202);
  });

  it('counts one e-mail domain across networks, and a free-mail domain per address', async () => {
    expect((await submit('192.0.2.1', 'a@acme.example')).status).toBe(202);
    expect((await submit('192.0.3.1', 'b@acme.example')).status).toBe(202);
    asksForProof(await submit('192.0.4.1', 'c@acme.example'));
    // Three people on one free-mail domain are three senders; one of them twice, then asked.
    for (const [ip, email] of [['192.0.5.1', 'x@gmail.com'], ['192.0.6.1', 'y@gmail.com'], ['192.0.7.1', 'z@gmail.com'], ['192.0.8.1', 'x@gmail.com']]) expect((await submit(ip!, email!)).status).toBe(202);
    asksForProof(await submit('192.0.9.1', 'X@gmail.com'));
  });

  it('refuses a solved challenge once it has expired', async () => {
    const stale = await solvePow(await issueChallenge(t.ctx, new Date(Date.now() - CHALLENGE_TTL_MS - 60_000)));
    asksForProof(await submit('203.0.113.10', 'jo@ten.example', stale), POW_MESSAGES.expired);
  });

  it('asks every sender once 80% of the day\'s provider budget is spent', async () => {
    expect((await submit('100.64.1.1', 'ka@eleven.example')).status).toBe(202);
    await recordProviderCall(t.ctx.db, { provider: 'google', sku: 'google.place_details.atmosphere', status: 200, subject: null });
    // $0.025 of $0.05: not yet.
    expect((await submit('100.64.2.1', 'lu@twelve.example')).status).toBe(202);
    await recordProviderCall(t.ctx.db, { provider: 'google', sku: 'google.place_details.atmosphere', status: 200, subject: null });
    const challenge = asksForProof(await submit('100.64.3.1', 'mo@thirteen.example'));
    expect((await submit('100.64.3.1', 'mo@thirteen.example', await solvePow(challenge))).status).toBe(202);
  });
});
