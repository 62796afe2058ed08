// `npm run openapi:lint` (also a step of `npm test`): generates the public API's OpenAPI document
// from the routes, as /api/v1/openapi.json serves it, and lints it with Redocly's recommended
// rules (redocly.yaml) and Spectral's `spectral:oas` (.spectral.yaml), failing on any warning.
// Runs offline: telemetry and the update check are off.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../api/routes/v1/document.ts';

const dir = mkdtempSync(join(tmpdir(), 'localrank-openapi-lint-'));
try {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(await buildOpenApiDocument(), null, 2));
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' };
  // Redocly fails on errors only: its totals say whether there was any warning.
  const redocly = spawnSync('redocly', ['lint', file, '--config', 'redocly.yaml', '--format', 'json'], { encoding: 'utf8', env });
  let totals: { errors: number; warnings: number } | undefined;
  try {
    totals = (JSON.parse(redocly.stdout) as { totals: { errors: number; warnings: number } }).totals;
  } catch {
    totals = undefined;
  }
  const redoclyClean = totals !== undefined && totals.errors === 0 && totals.warnings === 0;
  if (redoclyClean) console.log('Redocly (recommended): 0 errors, 0 warnings.');
  else spawnSync('redocly', ['lint', file, '--config', 'redocly.yaml'], { stdio: 'inherit', env });
  const spectral = spawnSync('spectral', ['lint', file, '--ruleset', '.spectral.yaml', '--fail-severity', 'warn'], { stdio: 'inherit', env });
  process.exitCode = redoclyClean && spectral.status === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
