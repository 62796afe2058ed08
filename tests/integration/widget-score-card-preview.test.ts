// /widget's live preview reads the score card a key publishes through the agency's own route
// (decision 0223): the chosen client's latest scores, the same the widget's public route answers,
// or why there are none; another agency's key is not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetKeys } from '../../db/schema/widget.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

describe("a widget key's score card preview", () => {
  it("is the chosen client's latest card, as the widget gets it; else why there is none", async () => {
    const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
    const consultantId = agency.viewer.consultant!.id;
    const { business } = await seedBusiness(t.ctx, { company: 'Whitfield Dental', snapshots: [{ daysAgo: 0, scores: { overall: 6.3 } }] });
    const chosen = await addClient(t.ctx, consultantId, business.id);
    const { business: fresh } = await seedBusiness(t.ctx, { company: 'Ortiz Plumbing' });
    const waiting = await addClient(t.ctx, consultantId, fresh.id);
    const key = async (letter: string, scoreCardClientId: string | null, components: Array<'score-card' | 'report-form'> = ['score-card']) =>
      (await t.ctx.db.insert(widgetKeys).values({ consultantId, name: letter, publishableKey: `lr_pk_${letter.repeat(24)}`, allowedHostnames: ['northstar.example'], components, scoreCardClientId }).returning())[0]!;
    const real = await key('r', chosen.id);

    const preview = await call(t.app, 'GET', `/api/widget/keys/${real.id}/score-card`, undefined, agency.cookie);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ clientName: 'Dana Whitfield', gap: null, scoreCard: { company: 'Whitfield Dental', overall: 6.3 } });
    // The widget's own route, from an allowed site, answers the same card.
    const widget = await t.app.request(`/api/widget/v1/${real.publishableKey}/score-card`, { headers: { origin: 'https://northstar.example' } });
    expect(await widget.json()).toEqual({ scoreCard: preview.body.scoreCard, website: preview.body.website });

    expect((await call(t.app, 'GET', `/api/widget/keys/${(await key('n', null)).id}/score-card`, undefined, agency.cookie)).body).toMatchObject({ scoreCard: null, gap: 'no_client', clientName: null });
    expect((await call(t.app, 'GET', `/api/widget/keys/${(await key('w', waiting.id)).id}/score-card`, undefined, agency.cookie)).body).toMatchObject({ scoreCard: null, gap: 'no_report', clientName: 'Dana Whitfield' });
    expect((await call(t.app, 'GET', `/api/widget/keys/${(await key('f', chosen.id, ['report-form'])).id}/score-card`, undefined, agency.cookie)).body).toMatchObject({ scoreCard: null, gap: 'component' });

    const stranger = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Other Agency' });
    expect((await call(t.app, 'GET', `/api/widget/keys/${real.id}/score-card`, undefined, stranger.cookie)).status).toBe(404);
    expect((await call(t.app, 'GET', `/api/widget/keys/${real.id}/score-card`)).status).toBe(401);
  });
});
