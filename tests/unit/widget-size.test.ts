// The widget's size budgets (issue 15): sizes are deterministic, so npm test holds them. Times
// are not; `npm run bench:widget` reports those.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { WIDGET_BUDGETS, widgetSizes } from '../../widget-sdk/build.ts';

const dir = mkdtempSync(join(tmpdir(), 'widget-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('keeps the loader under 1 KB gzip and the widget with both components under 10 KB gzip', async () => {
  const { loader, widget } = await widgetSizes(dir);
  expect(loader.gzip).toBeLessThanOrEqual(WIDGET_BUDGETS.loader);
  expect(widget.gzip).toBeLessThanOrEqual(WIDGET_BUDGETS.widget);
  expect(widget.file).toMatch(/^widget\.[0-9a-f]{10}\.js$/);
}, 60_000);
