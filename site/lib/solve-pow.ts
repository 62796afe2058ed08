// Solves the proof of work the free-report form is asked for past its thresholds (decision 0350):
// an ALTCHA challenge (altcha-lib's v2 format, PBKDF2/SHA-256, the counter appended to the nonce
// as 4 bytes big-endian) with the browser's own Web Crypto, in place of ALTCHA's widget (which
// shows a checkbox and weighs more than the whole form). Loaded only when a challenge comes.
export interface PowChallenge {
  parameters: { nonce: string; salt: string; cost: number; keyLength?: number; keyPrefix: string };
  signature?: string;
}

const bytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
/** Tries in flight at once: Web Crypto runs them off the main thread. */
const BATCH = 4;
/** The server's largest POW_MAX_COUNTER: a challenge never solved ends here. */
const LIMIT = 10_000_000;

async function derive(challenge: PowChallenge, counter: number): Promise<string> {
  const { nonce, salt, cost, keyLength = 32 } = challenge.parameters;
  const password = new Uint8Array(nonce.length / 2 + 4);
  password.set(bytes(nonce));
  new DataView(password.buffer).setUint32(password.length - 4, counter);
  const key = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
  return hex(new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', salt: bytes(salt), iterations: cost, hash: 'SHA-256' }, key, keyLength * 8)));
}

/** The solution as the form sends it: base64 JSON of the challenge and the counter found. */
export async function solvePow(challenge: PowChallenge): Promise<string> {
  const prefix = challenge.parameters.keyPrefix.toLowerCase();
  for (let start = 0; start < LIMIT; start += BATCH) {
    const keys = await Promise.all(Array.from({ length: BATCH }, (_, i) => derive(challenge, start + i)));
    const i = keys.findIndex((k) => k.startsWith(prefix));
    if (i >= 0) return btoa(JSON.stringify({ challenge, solution: { counter: start + i, derivedKey: keys[i] } }));
  }
  throw new Error('The proof of work could not be solved.');
}
