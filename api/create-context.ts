// The composition root's one assembly of a process's context: the database, the logger and
// better-auth with its e-mail sender (account e-mails go through the job queue). Called by every
// process entry (scripts/*, Astro's server context, the OpenAPI document) and the test helpers.
import { openDb, migrateDb } from '../db/client.ts';
import { createAuth } from './auth.ts';
import type { AppContext } from './context.ts';
import { enqueueAccountEmail } from './email/account-email.ts';
import type { Env } from './env.ts';
import { createLogger, type Logger } from './log.ts';
import { keptSecret } from './lib/kept-secret.ts';
import { moveLegacyFiles } from './services/legacy-files.ts';

/** AUTH_SECRET when set; else a secret generated once and kept in DATA_DIR (mode 0600). */
const authSecret = (env: Env) => keptSecret(env, env.AUTH_SECRET, 'auth-secret');

export async function createContext(env: Env, options: { migrate?: boolean; log?: Logger } = {}): Promise<AppContext> {
  const db = await openDb(env.DATABASE_URL, env.DATABASE_AUTH_TOKEN, { deadlineMs: env.DATABASE_TIMEOUT_MS });
  if (options.migrate) await migrateDb(db);
  const log = options.log ?? createLogger(env.LOG_LEVEL);
  const auth = createAuth({ db, env, secret: authSecret(env), log, sendEmail: (email) => enqueueAccountEmail(db, email) });
  const ctx = { env, db, auth, log };
  // Logos and exports an earlier version kept in this DATA_DIR go into the database (decision 0208).
  if (options.migrate) await moveLegacyFiles(ctx);
  return ctx;
}
