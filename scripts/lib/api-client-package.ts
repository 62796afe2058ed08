// The typed API client as an npm package a customer installs with one command (issue 39):
// `npm install <site>/api-client/v1/localrank-api-client-<version>.tgz`. Built by the site build
// (astro.config.mjs) into the static files: ES module and CommonJS, openapi-fetch bundled in (no
// dependency to fetch), its types beside ours, the README with the example.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'tsup';
import { npmTarball } from './npm-tarball.ts';
import { API_CLIENT_BASE_PATH, API_CLIENT_FILE, API_CLIENT_VERSION } from '../../common/api-client.ts';

const PACKAGE_DIR = resolve(import.meta.dirname, '../../packages/api-client');
const ROOT = resolve(import.meta.dirname, '../..');
const source = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { name: string; version: string; description: string; license: string };

export { API_CLIENT_BASE_PATH, API_CLIENT_FILE };
if (source.version !== API_CLIENT_VERSION) throw new Error(`packages/api-client is ${source.version}, common/api-client.ts says ${API_CLIENT_VERSION}`);

/** The package's tarball (what `npm install <url>` reads). */
export async function packApiClient(): Promise<Buffer> {
  const out = mkdtempSync(join(tmpdir(), 'localrank-api-client-'));
  try {
    await build({
      entry: { index: join(PACKAGE_DIR, 'src/index.ts') },
      format: ['esm', 'cjs'],
      dts: true,
      noExternal: ['openapi-fetch'],
      outDir: out,
      target: 'es2022',
      platform: 'neutral',
      silent: true,
      clean: false,
      tsconfig: join(PACKAGE_DIR, 'tsconfig.json'),
    });
    // openapi-fetch's types (and the helpers they use) travel with ours: nothing to install.
    const vendored = (file: string) => readFileSync(join(ROOT, 'node_modules', file), 'utf8');
    const relink = (text: string) => text.replaceAll("from 'openapi-fetch'", "from './openapi-fetch.js'").replaceAll("from 'openapi-typescript-helpers'", "from './openapi-typescript-helpers.js'");
    const manifest = {
      name: source.name,
      version: source.version,
      description: source.description,
      license: source.license,
      type: 'module',
      main: './dist/index.cjs',
      module: './dist/index.js',
      types: './dist/index.d.ts',
      exports: {
        '.': {
          import: { types: './dist/index.d.ts', default: './dist/index.js' },
          require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
        },
      },
      sideEffects: false,
      engines: { node: '>=18' },
    };
    const files: Array<[string, Buffer]> = [
      ['package.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)],
      ['README.md', readFileSync(join(PACKAGE_DIR, 'README.md'))],
      ['dist/index.js', readFileSync(join(out, 'index.js'))],
      ['dist/index.cjs', readFileSync(join(out, 'index.cjs'))],
      ['dist/index.d.ts', Buffer.from(relink(readFileSync(join(out, 'index.d.ts'), 'utf8')))],
      ['dist/index.d.cts', Buffer.from(relink(readFileSync(join(out, 'index.d.cts'), 'utf8')))],
    ];
    files.push(['dist/openapi-fetch.d.ts', Buffer.from(relink(vendored('openapi-fetch/dist/index.d.ts')))]);
    files.push(['dist/openapi-typescript-helpers.d.ts', Buffer.from(vendored('openapi-typescript-helpers/dist/index.d.ts'))]);
    return npmTarball(files);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Writes the tarball into the site's static files (dist/client). */
export async function buildApiClientPackage(clientDir: string): Promise<string> {
  const dir = join(clientDir, API_CLIENT_BASE_PATH);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, API_CLIENT_FILE);
  writeFileSync(file, await packApiClient());
  return file;
}
