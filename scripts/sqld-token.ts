// `npm run sqld-token -- <private-key.pem>`: prints the DATABASE_AUTH_TOKEN for a libSQL server
// given the public half of that Ed25519 key (README "Scaling out"). Without an argument, prints how.
import { readFileSync } from 'node:fs';
import { sqldToken } from './lib/sqld-token.ts';

const file = process.argv[2];
if (!file || file === '--help') {
  console.error('Usage: npm run sqld-token -- <private-key.pem>\n(openssl genpkey -algorithm ed25519 -out jwt-private.pem makes one; sqld gets its public half.)');
  process.exit(file ? 0 : 1);
}
try {
  console.log(sqldToken(readFileSync(file, 'utf8')));
} catch (error) {
  console.error(`Cannot sign with ${file}: ${(error as Error).message}`);
  process.exit(1);
}
