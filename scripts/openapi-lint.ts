// `npm run openapi:lint` (also a step of `npm test`): generates the public API's OpenAPI document
// from the routes, as /api/v1/openapi.json serves it, and lints it with Redocly's recommended
// rules (redocly.yaml). Runs offline: telemetry and the update check are off.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../api/routes/v1/document.ts';

const dir = mkdtempSync(join(tmpdir(), 'localrank-openapi-lint-'));
try {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(await buildOpenApiDocument(), null, 2));
  const result = spawnSync('redocly', ['lint', file, '--config', 'redocly.yaml'], {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
