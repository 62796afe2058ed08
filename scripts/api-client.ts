// `npm run api-client` writes packages/api-client/src/schema.ts, the TypeScript types of the
// public API, from the same OpenAPI document /api/v1/openapi.json serves (openapi-typescript);
// `npm run api-client -- --check` fails when the file is not what the document gives (npm test).
// The package itself (openapi-fetch over these types) is built by `npm pack` in its folder.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { apiClientSchema } from './lib/api-client-schema.ts';

const FILE = resolve(import.meta.dirname, '../packages/api-client/src/schema.ts');
const text = await apiClientSchema();
if (process.argv.includes('--check')) {
  const current = readFileSync(FILE, 'utf8');
  if (current !== text) {
    console.error('packages/api-client/src/schema.ts is not what the API document gives: run `npm run api-client`.');
    process.exitCode = 1;
  } else console.log('packages/api-client/src/schema.ts matches the API document.');
} else {
  writeFileSync(FILE, text);
  console.log(`wrote ${FILE.replace(`${process.cwd()}/`, '')}`);
}
