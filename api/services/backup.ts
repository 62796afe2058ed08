// Operator action: a consistent copy of a file database, taken while it serves (`VACUUM INTO`
// reads in one transaction, so requests and jobs carry on). A libSQL server keeps its own backups.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';

export async function backupDatabase({ ctx, target }: { ctx: Pick<AppContext, 'db' | 'env'>; target: string }) {
  if (!ctx.env.DATABASE_URL.startsWith('file:')) {
    throw new AppError('invalid_input', 'Backups copy a database file; a libSQL server (DATABASE_URL=libsql://…) keeps its own backups.');
  }
  const path = resolve(target);
  if (existsSync(path)) throw new AppError('conflict', `${path} already exists; choose a new file name.`);
  mkdirSync(dirname(path), { recursive: true });
  await ctx.db.$client.execute({ sql: 'VACUUM INTO ?', args: [path] });
  return { path, bytes: statSync(path).size };
}
