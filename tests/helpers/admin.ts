// The operator's commands as an operator runs them (`npm run admin -- …`, `npm run report -- …`):
// a process on the database in `dataDir`, its output and exit code.
import { spawn } from 'node:child_process';

export type ScriptResult = { code: number; out: string; err: string };

/** Runs `script` (a path from the repository's root) with `args` in `env`; its output and exit code. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<ScriptResult> {
  const child = spawn(process.execPath, [script, ...args], { env });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code: code ?? -1, out, err })));
}

export function runAdmin(dataDir: string, ...args: string[]): Promise<ScriptResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  return runScript('scripts/admin.ts', args, env);
}
