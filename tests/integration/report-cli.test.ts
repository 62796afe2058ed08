// `npm run report -- …` as an operator runs it: the form's rules and messages for bad arguments,
// a plain reason (no stack trace) when the address cannot be located, and the scores and files
// of a report otherwise.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript, type ScriptResult } from '../helpers/admin.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'localrank-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function report(args: Record<string, string> | string[], settings: NodeJS.ProcessEnv = {}): Promise<ScriptResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PLACES_PROVIDER: 'sample' };
  for (const name of ['DATABASE_URL', 'SMTP_URL', 'GEOCODER_KEY', 'PUBLIC_BASE_URL', 'PORT']) delete env[name];
  Object.assign(env, settings);
  const argv = Array.isArray(args) ? args : Object.entries(args).flatMap(([k, v]) => [`--${k}`, v]);
  return runScript('scripts/report.ts', argv, env);
}

const acme = { company: 'Acme Dental', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', website: 'https://acme.example' };

describe('npm run report', () => {
  it('refuses bad arguments with the form’s messages, one line per flag', async () => {
    const bad = await report({ ...acme, company: 'A', state: 'ZZ', zip: '1', website: 'acme.example', email: 'nobody' });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--company: String must contain at least 2 character(s)\n');
    expect(bad.err).toContain("--state: Invalid enum value. Expected 'AL' | ");
    expect(bad.err).toContain('--zip: ZIP code must be 5 digits or ZIP+4 (12345-6789)\n');
    expect(bad.err).toContain('--website: Invalid url\n');
    expect(bad.err).toContain('--email: Invalid email\n');
    expect(bad.err).toContain('usage: npm run report -- --company NAME');
  });

  it('--help explains every option', async () => {
    const help = await report(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--company', '--address', '--city', '--state', '--zip', '--website', '--email', '--name', '--help']) expect(help.out).toMatch(new RegExp(`^ +(-h, )?${flag} `, 'm'));
  });

  it('says why when the address cannot be located, without a stack trace', async () => {
    const lost = await report({ ...acme, city: 'Nowhereville', zip: '00001' });
    expect(lost.code).toBe(1);
    expect(lost.err).toBe('No report: Neither the ZIP code 00001 nor the city Nowhereville, TX could be found in the US ZIP code data.\n');
  });

  it('prints the scores, the competitors and where the files went, linking to where `npm start` serves', async () => {
    const ok = await report({ ...acme, state: 'tx' }, { PORT: '4999' });
    expect(ok.out).toMatch(/^Online +http:\/\/localhost:4999\/report\/\S+$/m);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/Overall \d+\.\d{2} · rank #\d+ of 10/);
    expect(ok.out).toMatch(/Data points +\d{2,}/);
    // The local visibility grid: its line, and each competitor's SoLV in the table.
    expect(ok.out).toMatch(/^Share of Local Voice \d+\.\d{2}% \(top 3 at \d+ of 9 grid points for "[a-z ]+"\) · ARP [\d.–]+ · ATRP \d+\.\d{2} · sample data$/m);
    expect(ok.out).toMatch(/^Rank +Business +Miles +Website +SoLV +Overall$/m);
    const pdf = /^PDF +(.+)$/m.exec(ok.out)?.[1];
    expect(pdf && existsSync(pdf)).toBe(true);
    expect(readdirSync(join(dataDir, 'outbox'))).toHaveLength(1);
  }, 60_000);
});
