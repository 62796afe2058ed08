// Branding previews in the render lane with a per-agency limit (issue 47, decision 0250): one
// preview of an agency renders at a time and one waits; a newer one replaces the waiting one,
// which is answered 429 with Retry-After; another agency's preview goes into the lane at once,
// and previews never make a report wait behind their queue.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setRenderLane } from '../../api/report/render/render-lane.ts';
import { inlineRenderer, threadRenderer, type Renderer } from '../../api/report/render/renderer.ts';
import { PREVIEW_REPLACED_RETRY_SECONDS } from '../../api/report/branding-preview.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: 'https://app.example.com' });
});
afterAll(async () => t.close());

const form = (companyName: string) => ({ companyName, primaryColor: '#BE123C', secondaryColor: '#1E293B', accentColor: '#0EA5E9', contactEmail: 'team@agency.example' });

/** The real renderer behind a gate: each render is recorded by the agency name it draws, and
 *  waits until the test opens the gate. */
function heldLane() {
  const real = inlineRenderer();
  const started: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const renderer: Renderer = {
    kind: 'inline',
    async render(data, links, branding, options) {
      started.push(branding?.companyName ?? 'none');
      await gate;
      return real.render(data, links, branding, options);
    },
    close: async () => {},
  };
  return { renderer, started, open };
}

describe('branding previews in the render lane', () => {
  it('renders one preview of an agency at a time, replaces its waiting one, and lets another agency in at once', async () => {
    const lane = heldLane();
    const leave = setRenderLane(lane.renderer);
    try {
      const a = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
      const b = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
      const first = call(t.app, 'POST', '/api/branding-profiles/preview', form('Agency A 1'), a.cookie);
      await vi.waitFor(() => expect(lane.started).toEqual(['Agency A 1']), { timeout: 60_000, interval: 20 });
      // A second preview of A waits, not rendered while the first is.
      const second = call(t.app, 'POST', '/api/branding-profiles/preview', form('Agency A 2'), a.cookie);
      // B's preview goes into the lane while A's first still renders.
      const other = call(t.app, 'POST', '/api/branding-profiles/preview', form('Agency B 1'), b.cookie);
      await vi.waitFor(() => expect(lane.started).toEqual(['Agency A 1', 'Agency B 1']), { timeout: 60_000, interval: 20 });
      // A third of A replaces the waiting second, which is refused at once.
      const third = call(t.app, 'POST', '/api/branding-profiles/preview', form('Agency A 3'), a.cookie);
      const replaced = await second;
      expect(replaced.status).toBe(429);
      expect(replaced.headers.get('retry-after')).toBe(String(PREVIEW_REPLACED_RETRY_SECONDS));
      expect(replaced.body.code).toBe('rate_limited');
      lane.open();
      const answers = await Promise.all([first, other, third]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(answers.map((r) => (r.body as { email: { html: string } }).email.html.includes('Agency A 3'))).toEqual([false, false, true]);
      // The second was never drawn.
      expect(lane.started).toEqual(['Agency A 1', 'Agency B 1', 'Agency A 3']);
    } finally {
      leave();
    }
  }, 180_000);

  it('serves the report lane and the preview lane in turn, so a report waits behind one preview, not all', async () => {
    const pool = threadRenderer(1);
    try {
      const data = reportDataFixture();
      const links = { methodologyUrl: 'https://app.example.com/methodology' };
      const done: string[] = [];
      const render = (name: string, lane: 'report' | 'preview') => pool.render(data, links, null, { lane }).then(() => void done.push(name));
      // The first report takes the thread; three previews, then a second report, queue behind it.
      const all = [render('report 1', 'report'), render('preview 1', 'preview'), render('preview 2', 'preview'), render('preview 3', 'preview'), render('report 2', 'report')];
      await Promise.all(all);
      expect(done).toEqual(['report 1', 'preview 1', 'report 2', 'preview 2', 'preview 3']);
    } finally {
      await pool.close();
    }
  }, 180_000);
});
