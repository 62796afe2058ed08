// api/README.md's layer table counts the files of each layer as .dependency-cruiser.mjs draws
// them: a file added, moved or removed makes it stale, and this says what it should read.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BASE, INFRA, ROOT } from '../../.dependency-cruiser.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** The layer each file is in, by the dependency rules' own patterns (the first that matches). */
function layerOf(file: string): string {
  if (new RegExp(ROOT).test(file)) return 'composition root';
  if (/^api\/routes\//.test(file)) return 'routes';
  if (/^api\/(services|report|email)\//.test(file)) return 'services, report, email';
  if (new RegExp(BASE).test(file) || /^api\/types\//.test(file)) return 'env, log, errors, db, common';
  if (new RegExp(INFRA).test(file)) return 'jobs (queue), lib, context, auth';
  return 'none';
}

const readme = readFileSync(join(root, 'api/README.md'), 'utf8');
const tableCount = (layer: string) => Number(new RegExp(`^\\| ${layer.replace(/[()]/g, '\\$&')} \\| (\\d+) \\|`, 'm').exec(readme)?.[1]);
const folderCount = (folder: string) => Number(new RegExp('`' + folder.replace(/[*/]/g, '\\$&') + '` \\((\\d+)').exec(readme)?.[1]);

describe('api/README.md layer table', () => {
  const files = [...sources('api'), ...sources('db'), ...sources('common')];

  it('puts every file of api/, db/ and common/ in a layer', () => {
    expect(files.filter((file) => layerOf(file) === 'none')).toEqual([]);
  });

  it('counts the files of each layer as they are', () => {
    const counts = new Map<string, number>();
    for (const file of files) counts.set(layerOf(file), (counts.get(layerOf(file)) ?? 0) + 1);
    const table = Object.fromEntries([...counts.keys()].map((layer) => [layer, tableCount(layer)]));
    expect(table).toEqual(Object.fromEntries(counts));
  });

  it('counts each folder it names as it is', () => {
    const folders = { 'services/**': 'api/services', 'report/**': 'api/report', 'email/**': 'api/email', 'lib/**': 'api/lib', 'types/': 'api/types', 'db/': 'db', 'common/': 'common' };
    const table = Object.fromEntries(Object.keys(folders).map((name) => [name, folderCount(name)]));
    expect(table).toEqual(Object.fromEntries(Object.entries(folders).map(([name, dir]) => [name, sources(dir).length])));
    expect(Number(/`widget-sdk\/src` \((\d+) files\)/.exec(readme)?.[1])).toBe(sources('widget-sdk/src').length);
  });
});
