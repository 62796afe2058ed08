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
  expect([loader.file, widget.file]).toEqual(['loader.js', 'widget.js']);
}, 60_000);

it('packs the ES module build as the npm package the React usage names, with its type declarations', async () => {
  const { readFileSync: read } = await import('node:fs');
  const { gunzipSync } = await import('node:zlib');
  const { WIDGET_PACKAGE_FILE } = await import('../../common/widget.ts');
  const { buildEsm, packEsm } = await import('../../widget-sdk/build.ts');
  const pkg = JSON.parse(read(join(import.meta.dirname, '../../widget-sdk/package.json'), 'utf8'));
  expect(WIDGET_PACKAGE_FILE).toBe(`localrank-widget-${pkg.version}.tgz`);
  expect(pkg.peerDependencies).toMatchObject({ react: expect.any(String), 'react-dom': expect.any(String) });
  await buildEsm(join(dir, 'esm'));
  const tar = gunzipSync(packEsm(dir)).toString('latin1');
  for (const name of ['package/package.json', 'package/dist/esm/index.js', 'package/dist/esm/index.d.ts']) expect(tar).toContain(name);
  expect(tar).toMatch(/declare function ReportForm\(/);
  expect(tar).toMatch(/declare function ScoreCard\(/);
  expect(tar).toContain("from 'react'");
}, 60_000);
