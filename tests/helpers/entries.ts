// The processes the integration tests start (the operator's commands, web and worker processes,
// crash workers) run from bundles of their sources, made once per vitest run (globalSetup), not
// from the .ts files: a start from the sources cost about 4.3 s of CPU, most of it Node resolving
// and reading some 1,500 modules (each drizzle-orm import deserialises its 179 KB exports map
// again), against about 1.4 s bundled. So that a bundle behaves as its sources do:
// - every module keeps its own import.meta.url, dirname and filename (written in as literals), so
//   paths next to a module (migrations, fonts, the render thread) are the same files;
// - a package that is not an ES module stays outside the bundle, imported from where Node finds it,
//   so CommonJS keeps Node's own semantics (its __dirname, native bindings, interop);
// - our .ts files are compiled by esbuild, which strips types as Node's own stripping does (the
//   code uses only erasable syntax: `erasableSyntaxOnly` in tsconfig.json).
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, 'node_modules/.cache/test-entries');

/** The scripts the tests start as processes. */
const ENTRIES = ['scripts/admin.ts', 'scripts/report.ts', 'scripts/start.ts', 'scripts/worker.ts', 'tests/helpers/crash-worker.ts', 'tests/helpers/readonly-child.ts'];

/**
 * The file to hand `node` for `script` (a path from the repository's root): its bundle in a test
 * run (globalSetup built them and said so in TEST_ENTRIES), the script itself elsewhere (a bench
 * starts processes as production does).
 */
export function entry(script: string): string {
  const path = relative(ROOT, resolve(ROOT, script));
  if (!process.env.TEST_ENTRIES) return resolve(ROOT, path);
  if (!ENTRIES.includes(path)) throw new Error(`${path} is not one of the bundled entries (tests/helpers/entries.ts)`);
  return join(process.env.TEST_ENTRIES, path.replace(/\.ts$/, '.mjs'));
}

/** Each folder's answer to "is a .js file here an ES module?", from the nearest package.json. */
const moduleFolders = new Map<string, boolean>();

function folderIsEsm(dir: string): boolean {
  let answer = moduleFolders.get(dir);
  if (answer !== undefined) return answer;
  const pkg = join(dir, 'package.json');
  let type: string | undefined | null = null;
  if (existsSync(pkg)) {
    try {
      type = (JSON.parse(readFileSync(pkg, 'utf8')) as { type?: string }).type;
    } catch {
      // A package.json that is not a package's (a test fixture): look further up.
    }
  }
  answer = type === null ? dir !== dirname(dir) && folderIsEsm(dirname(dir)) : type === 'module';
  moduleFolders.set(dir, answer);
  return answer;
}

/** Whether Node loads `file` as an ES module (by its extension, else its package's "type"). */
function isEsm(file: string): boolean {
  if (/\.(mjs|mts|json)$/.test(file)) return true;
  if (/\.(cjs|node)$/.test(file)) return false;
  return folderIsEsm(dirname(file));
}

/** Into the bundle if Node loads `file` as an ES module; otherwise imported by its path, so a package's own nested copy stays the one it gets. */
const outsideUnlessEsm = (file: string) => (isEsm(file) ? { path: file } : { path: file, external: true });

const META = /\bimport\.meta\.(url|dirname|filename)\b/g;

const sameAsSources: Plugin = {
  name: 'same-as-sources',
  setup(b) {
    // A package, found by esbuild's resolver (asked only for bare names: each call is costly).
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'inner' || args.kind === 'entry-point' || args.path.startsWith('node:')) return undefined;
      const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'inner' });
      // An optional dependency that is not installed fails where Node fails, at run time.
      if (found.errors.length > 0) return { path: args.path, external: true };
      return found.external || !found.path ? found : outsideUnlessEsm(found.path);
    });
    // A file a package's ES module names by its relative path (with its extension, as ES modules
    // must): a CommonJS file among them stays outside too.
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!args.importer.includes('/node_modules/')) return undefined;
      const file = resolve(args.resolveDir, args.path);
      return existsSync(file) && statSync(file).isFile() ? outsideUnlessEsm(file) : undefined;
    });
    b.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const values = { url: pathToFileURL(args.path).href, dirname: dirname(args.path), filename: args.path };
      const contents = source.replace(META, (_, key: keyof typeof values) => JSON.stringify(values[key]));
      return { contents, loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** Bundles every entry into node_modules/.cache/test-entries (shared chunks split out); `entry` hands them out from now on, here and in processes started after. */
export async function buildEntries(): Promise<void> {
  rmSync(OUT, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: OUT,
    outbase: ROOT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    plugins: [sameAsSources],
    logLevel: 'error',
  });
  process.env.TEST_ENTRIES = OUT;
}
