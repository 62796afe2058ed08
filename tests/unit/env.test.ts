import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDataDir, EnvError, loadEnv, SETTING_NAMES } from '../../api/env.ts';

describe('settings', () => {
  it('serve with no configuration at all', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ PORT: 4321, HOST: '127.0.0.1', DATA_DIR: 'data', DATABASE_URL: 'file:data/app.db', PUBLIC_BASE_URL: 'http://localhost:4321', WORKER: 'inline' });
  });

  it('derive the database file and base URL from DATA_DIR and PORT', () => {
    const env = loadEnv({ DATA_DIR: '/srv/lr', PORT: '8080', PUBLIC_BASE_URL: 'https://example.com/' });
    expect(env.DATABASE_URL).toBe('file:/srv/lr/app.db');
    expect(env.PUBLIC_BASE_URL).toBe('https://example.com');
  });

  it('stop start-up naming the bad variable', () => {
    expect(() => loadEnv({ PORT: 'eighty' })).toThrow(EnvError);
    expect(() => loadEnv({ PORT: 'eighty' })).toThrow(/PORT: must be a port number/);
    expect(() => loadEnv({ WORKER: 'sometimes' })).toThrow(/WORKER/);
    expect(() => loadEnv({ PUBLIC_BASE_URL: 'ftp://x' })).toThrow(/PUBLIC_BASE_URL/);
    expect(() => loadEnv({ AUTH_SECRET: 'short' })).toThrow(/AUTH_SECRET must be at least 32 characters/);
    expect(() => loadEnv({ DATABASE_URL: 'mysql://db.example.com/app' })).toThrow(/DATABASE_URL: must be a libSQL URL/);
    expect(() => loadEnv({ DATABASE_URL: 'data/app.db' })).toThrow(/DATABASE_URL: must be a libSQL URL/);
  });

  it('take a blank number setting as unset, not as 0', () => {
    const env = loadEnv({ PORT: '', WORKER_GRACE_MS: ' ', INTAKE_RATE_LIMIT_PER_IP: '', SITE_FETCH_CONCURRENCY: '' });
    expect(env).toMatchObject({ PORT: 4321, WORKER_GRACE_MS: 10_000, INTAKE_RATE_LIMIT_PER_IP: 20, SITE_FETCH_CONCURRENCY: 4 });
    expect(loadEnv({ PORT: '0' }).PORT).toBe(0);
    expect(() => loadEnv({ WORKER_CONCURRENCY: '1.5' })).toThrow(/WORKER_CONCURRENCY: must be a whole number from 1 to 32/);
    expect(() => loadEnv({ CONTACT_RATE_LIMIT_PER_IP: '0' })).toThrow(/CONTACT_RATE_LIMIT_PER_IP: must be a whole number of messages per hour/);
  });

  it('stop start-up naming any setting with a bad value', () => {
    const bad: Record<string, string> = {
      PORT: 'x', HOST: '', DATA_DIR: '', DATABASE_URL: 'pg://x', PUBLIC_BASE_URL: 'nope', AUTH_SECRET: 'x', WORKER: 'x', NODE_ENV: 'x',
      TRUST_PROXY: 'yes', INTAKE_RATE_LIMIT_PER_IP: '0', INTAKE_RATE_LIMIT_PER_EMAIL: 'x', CONTACT_RATE_LIMIT_PER_IP: '-1',
      CONTACT_RATE_LIMIT_PER_EMAIL: '1.5', LOG_LEVEL: 'x', REANALYSIS_INTERVAL_DAYS: '91', WORKER_CONCURRENCY: '0', WORKER_GRACE_MS: 'x',
      SMTP_URL: 'http://x', MAIL_FROM: '', OPERATOR_EMAIL: 'x', PLACES_PROVIDER: 'bing', GOOGLE_PLACES_BASE_URL: 'x', YELP_BASE_URL: 'x',
      GEOCODER_URL: 'x', PROVIDER_TIMEOUT_MS: 'x', SITE_FETCH_TIMEOUT_MS: '50', SITE_FETCH_MAX_BYTES: 'x', SITE_FETCH_CONCURRENCY: '17',
      SITE_FETCH_PORTS: 'a,b', STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_PUBLISHABLE_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'secret',
      STRIPE_API_URL: 'ftp://x', BILLING_GRACE_DAYS: '61', SUBSCRIBE_RATE_LIMIT_PER_USER: '0',
    };
    for (const [name, value] of Object.entries(bad)) expect(() => loadEnv({ [name]: value }), name).toThrow(new RegExp(`^Invalid settings:\\n  ${name}: `));
    expect(() => loadEnv({ PLACES_PROVIDER: 'google' })).toThrow(/GOOGLE_PLACES_KEY: is required when PLACES_PROVIDER=google/);
    expect(() => loadEnv({ PLACES_PROVIDER: 'yelp' })).toThrow(/YELP_API_KEY: is required when PLACES_PROVIDER=yelp/);
  });

  it('take the Stripe keys both or neither, of one mode', () => {
    expect(() => loadEnv({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(/STRIPE_PUBLISHABLE_KEY: is required with the other Stripe key/);
    expect(() => loadEnv({ STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' })).toThrow(/STRIPE_SECRET_KEY: is required with the other Stripe key/);
    expect(() => loadEnv({ STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' })).toThrow(/STRIPE_PUBLISHABLE_KEY: must be of the same mode/);
    expect(loadEnv({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' })).toMatchObject({ STRIPE_API_URL: 'https://api.stripe.com', BILLING_GRACE_DAYS: 7 });
  });

  it('let webhooks reach loopback ports in tests only', () => {
    expect(loadEnv({ NODE_ENV: 'test', WEBHOOK_LOOPBACK_PORTS: '41234, 41235' }).WEBHOOK_LOOPBACK_PORTS).toEqual([41234, 41235]);
    expect(loadEnv({}).WEBHOOK_LOOPBACK_PORTS).toEqual([]);
    expect(() => loadEnv({ NODE_ENV: 'test', WEBHOOK_LOOPBACK_PORTS: '80x' })).toThrow(/WEBHOOK_LOOPBACK_PORTS: must be a comma-separated list of port numbers/);
    expect(() => loadEnv({ NODE_ENV: 'production', ALLOW_SAMPLE_DATA: 'true', WEBHOOK_LOOPBACK_PORTS: '41234' })).toThrow(/WEBHOOK_LOOPBACK_PORTS: is for tests only/);
  });

  it('refuse to start in production on sample data unless it is asked for by name', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/PLACES_PROVIDER: is not set, so with NODE_ENV=production every report would be made from sample data.*ALLOW_SAMPLE_DATA=true/s);
    expect(() => loadEnv({ NODE_ENV: 'production', PLACES_PROVIDER: ' ' })).toThrow(/PLACES_PROVIDER/);
    expect(loadEnv({ NODE_ENV: 'production', ALLOW_SAMPLE_DATA: 'true' }).PLACES_PROVIDER).toBe('sample');
    expect(loadEnv({ NODE_ENV: 'production', PLACES_PROVIDER: 'sample' }).PLACES_PROVIDER).toBe('sample');
    expect(loadEnv({ NODE_ENV: 'production', PLACES_PROVIDER: 'yelp', YELP_API_KEY: 'k' }).PLACES_PROVIDER).toBe('yelp');
    expect(loadEnv({}).ALLOW_SAMPLE_DATA).toBe(false);
  });

  it('accept a libSQL file or server URL', () => {
    for (const url of ['file:/srv/lr/app.db', 'libsql://db.example.com', 'https://db.example.com', 'ws://127.0.0.1:8080']) {
      expect(loadEnv({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    }
  });

  it('are the ones the README documents, with the same defaults', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const rows = new Map([...readme.matchAll(/^\| `([A-Z_]+)` \| (.*?) \|/gm)].map((m) => [m[1], m[2]]));
    expect([...rows.keys()].sort()).toEqual([...SETTING_NAMES].sort());
    const defaults = loadEnv({}) as unknown as Record<string, unknown>;
    for (const [name, documented] of rows) {
      const value = defaults[name];
      const literal = /^`([^`]*)`/.exec(documented)?.[1];
      if (value === undefined || (Array.isArray(value) && value.length === 0)) {
        expect(documented, name).toMatch(/^(none|generated)/);
      } else if (name === 'DATA_DIR') {
        expect(literal).toBe(`${value}/`);
      } else if (name === 'PUBLIC_BASE_URL') {
        expect(literal?.replace('$PORT', String(defaults.PORT))).toBe(value);
      } else {
        expect(literal, name).toBe(String(value));
      }
    }
  });
});

describe('DATA_DIR', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lr-datadir-'));
  const file = join(tmp, 'a-file');
  writeFileSync(file, 'not a folder');
  const readOnly = join(tmp, 'read-only');
  mkdirSync(readOnly, { mode: 0o500 });

  it('a folder that can be made and written in passes, and is made', () => {
    const env = loadEnv({ DATA_DIR: join(tmp, 'new', 'data') });
    expect(() => checkDataDir(env)).not.toThrow();
    expect(statSync(env.DATA_DIR).isDirectory()).toBe(true);
    expect(readdirSync(env.DATA_DIR)).toEqual([]);
  });

  it('a file, a path under a file, or a folder that cannot be written stops start-up naming the setting', () => {
    expect(() => checkDataDir(loadEnv({ DATA_DIR: file }))).toThrow(/DATA_DIR: ".*a-file" is a file or lies under one/);
    expect(() => checkDataDir(loadEnv({ DATA_DIR: join(file, 'data') }))).toThrow(/DATA_DIR: .* is a file or lies under one/);
    // root writes anywhere: the permission case only means something for other users.
    if (process.getuid?.() !== 0) expect(() => checkDataDir(loadEnv({ DATA_DIR: join(readOnly, 'data') }))).toThrow(/DATA_DIR: .* cannot be written by this process/);
  });

  it('`npm start` prints that one line and exits 1', () => {
    // A generous limit: loading the server's modules took 21 s of wall time for 3.4 s of CPU on a busy 2-core machine.
    const run = spawnSync(process.execPath, ['scripts/start.ts'], { env: { ...process.env, DATA_DIR: file, PORT: '0' }, encoding: 'utf8', timeout: 120_000 });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual(['Invalid settings:', `  DATA_DIR: "${file}" is a file or lies under one; set it to a folder this process can write in.`]);
  }, 130_000);
});
