// The operator command as an operator runs it (`npm run admin -- …`): a process on the database
// in `dataDir`, its output and exit code.
import { spawn } from 'node:child_process';

export function runAdmin(dataDir: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['scripts/admin.ts', ...args], { env });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code: code ?? -1, out, err })));
}
