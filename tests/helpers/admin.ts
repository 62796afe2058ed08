// The operator's commands as an operator runs them (`npm run admin -- …`, `npm run report -- …`):
// a process on the test context's database, its output and exit code.
import { spawn } from 'node:child_process';
import { databaseEnv, type TestContext } from './context.ts';
import { entry } from './entries.ts';

export type ScriptResult = { code: number; out: string; err: string };

/** Runs `script` (a path from the repository's root) with `args` in `env`; its output and exit code. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<ScriptResult> {
  const child = spawn(process.execPath, [entry(script), ...args], { env });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code: code ?? -1, out, err })));
}

/** `npm run admin -- …` on the test context's database (its file, or its server on the sqld pass). */
export function runAdmin(t: Pick<TestContext, 'dataDir' | 'ctx'>, ...args: string[]): Promise<ScriptResult> {
  return runScript('scripts/admin.ts', args, { ...process.env, ...databaseEnv(t), LOG_LEVEL: 'silent' });
}
