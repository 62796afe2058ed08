// The e-mails the browser tests' server writes to its outbox (DATA_DIR/outbox, one .eml each).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime, { type Email } from 'postal-mime';
import { expect } from './fixtures.ts';

/** The newest link to `path` e-mailed to `to` (the server's worker sends from a job, so it polls:
 *  up to 45 s, a ceiling for a busy 2-core machine, where 20 s once ran out). */
export async function linkFor(to: string, path: string): Promise<URL> {
  const dir = join(process.env.E2E_DATA_DIR!, 'outbox');
  let found: string | undefined;
  await expect
    .poll(async () => {
      const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().reverse() : [];
      for (const file of files) {
        const mail = await PostalMime.parse(readFileSync(join(dir, file)));
        if (!mail.to?.some((a) => a.address?.toLowerCase() === to.toLowerCase())) continue;
        const m = new RegExp(`https?://[^\\s]+${path}\\?token=[^\\s]+`).exec(mail.text ?? '');
        if (m) return (found = m[0]);
      }
      return undefined;
    }, { timeout: 45_000 })
    .toBeTruthy();
  return new URL(found!);
}

/** Every e-mail in the outbox to `to`, oldest first. */
export async function mailsTo(to: string): Promise<Email[]> {
  const dir = join(process.env.E2E_DATA_DIR!, 'outbox');
  const found: Email[] = [];
  for (const file of existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml')).sort() : []) {
    const mail = await PostalMime.parse(readFileSync(join(dir, file)));
    if (mail.to?.some((a) => a.address?.toLowerCase() === to.toLowerCase())) found.push(mail);
  }
  return found;
}
