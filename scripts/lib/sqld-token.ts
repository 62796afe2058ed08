// The token a libSQL server started with `--auth-jwt-key-file` takes: a JWT signed with the
// Ed25519 private key whose public half sqld was given (alg EdDSA), granting read and write
// (`{"a":"rw"}`). No expiry: a token is withdrawn by giving sqld a new key (decision 0243).
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function sqldToken(privateKey: KeyObject | string): string {
  const signed = `${part({ alg: 'EdDSA', typ: 'JWT' })}.${part({ a: 'rw' })}`;
  return `${signed}.${sign(null, Buffer.from(signed), privateKey).toString('base64url')}`;
}

/** A new key pair in PEM: the public key for sqld's --auth-jwt-key-file, the private one to sign tokens. */
export function sqldKeyPair(): { publicPem: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
