// Builds the widget SDK with tsup (run by the site build: astro.config.mjs, so `npm run build`,
// `npm start` and `npm test` all have it):
// - the script-tag widget: one minified IIFE on Preact, `react` aliased to src/preact-react.ts
//   (Preact's Component and createElement; preact/compat would cost 1.8 KB gzip more and break
//   the 10 KB budget, decision 0115), written as widget.js (a stable address: decision 0205);
// - the loader, the entry a snippet runs;
// - the ES module build with type declarations, react and react-dom as peer dependencies.
// The first two are copied into the site's static files under WIDGET_BASE_PATH.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Options } from 'tsup';
import { npmTarball } from '../scripts/lib/npm-tarball.ts';
import { WIDGET_BASE_PATH, WIDGET_FILE, WIDGET_LOADER_FILE, WIDGET_PACKAGE_FILE } from '../common/widget.ts';

const here = import.meta.dirname;
export const WIDGET_DIST = resolve(here, 'dist');

const common: Options = {
  silent: true,
  target: 'es2022',
  platform: 'browser',
  treeshake: true,
  sourcemap: false,
  clean: false,
  tsconfig: resolve(here, '../tsconfig.json'),
};

/** The loader and the widget, in `dir` (widget-sdk/dist/script). */
export async function buildScriptTag(dir = join(WIDGET_DIST, 'script')): Promise<{ loader: string; widget: string }> {
  rmSync(dir, { recursive: true, force: true });
  const name = (file: string) => file.replace(/\.js$/, '');
  await build({
    ...common,
    entry: { [name(WIDGET_FILE)]: resolve(here, 'src/elements.ts'), [name(WIDGET_LOADER_FILE)]: resolve(here, 'src/loader.ts') },
    outDir: dir,
    format: ['iife'],
    minify: true,
    outExtension: () => ({ js: '.js' }),
    esbuildOptions(options) {
      options.alias = { 'react/jsx-runtime': 'preact/jsx-runtime', react: resolve(here, 'src/preact-react.ts') };
      options.jsx = 'automatic';
      options.jsxImportSource = 'preact';
      options.legalComments = 'none';
    },
  });
  return { loader: join(dir, WIDGET_LOADER_FILE), widget: join(dir, WIDGET_FILE) };
}

export async function buildEsm(dir = join(WIDGET_DIST, 'esm')): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  await build({
    ...common,
    entry: { index: resolve(here, 'src/index.ts') },
    outDir: dir,
    format: ['esm'],
    dts: true,
    external: ['react', 'react-dom', 'react/jsx-runtime'],
    esbuildOptions(options) {
      options.jsx = 'automatic';
    },
  });
}

/** The ES module build as an npm package tarball (what `npm install <url>` reads). */
export function packEsm(dir = WIDGET_DIST): Buffer {
  const files: Array<[string, Buffer]> = [
    ['package.json', readFileSync(resolve(here, 'package.json'))],
    ['dist/esm/index.js', readFileSync(join(dir, 'esm/index.js'))],
    ['dist/esm/index.d.ts', readFileSync(join(dir, 'esm/index.d.ts'))],
  ];
  return npmTarball(files);
}


/** Both builds; the script-tag files and the React package copied into the site's static files (dist/client). */
export async function buildWidget(clientDir: string): Promise<void> {
  const script = await buildScriptTag();
  await buildEsm();
  const out = join(clientDir, WIDGET_BASE_PATH);
  mkdirSync(out, { recursive: true });
  copyFileSync(script.loader, join(out, WIDGET_LOADER_FILE));
  copyFileSync(script.widget, join(out, WIDGET_FILE));
  writeFileSync(join(out, WIDGET_PACKAGE_FILE), packEsm());
}

/** The budgets (gzip bytes): the loader a snippet names, and the widget with both components. */
export const WIDGET_BUDGETS = { loader: 1024, widget: 10 * 1024 } as const;

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

/** Raw, gzip (level 9, as served) and brotli (best) sizes of the script-tag build's files. */
export async function widgetSizes(dir = join(WIDGET_DIST, 'script')): Promise<{ loader: FileSize; widget: FileSize }> {
  const script = await buildScriptTag(dir);
  const size = (path: string, file: string): FileSize => {
    const body = readFileSync(path);
    return {
      file,
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
      brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }).length,
    };
  };
  return { loader: size(script.loader, WIDGET_LOADER_FILE), widget: size(script.widget, WIDGET_FILE) };
}
