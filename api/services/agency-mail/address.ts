// An agency's mail server's host: normalised and checked when it is saved, and its addresses
// checked again at each connection (decisions 0204 and 0210). A resolver reads an IPv4 address in
// many spellings (`127.1`, `2130706433`, `0x7f000001`, `0177.0.0.1`, `0`), so a host that ends in
// a number is read as the resolver would read it, stored in its dotted form, and refused at once,
// with the reason, when it is loopback, private or reserved, unless the operator allows that
// address (AGENCY_MAIL_PRIVATE_ADDRESSES: its own relay; the tests' servers on loopback).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { addressRefusal } from '../../lib/safe-fetch.ts';

const HINT = "Enter your mail server's name or public address.";

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'the unspecified address (this server itself)',
  loopback: 'a loopback address (this server itself)',
  private: 'an address on a private network',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
};

/** The host to store, or why it is refused (the host field's message). A name is kept as a name,
 *  in lower case: what it resolves to may change, so it is checked at each connection. */
export function mailHostToSave(typed: string, allowed: readonly string[]): { host: string } | { refusal: string } {
  const host = typed.trim().toLowerCase();
  if (/(^|\.)localhost$/.test(host)) return allowed.includes('127.0.0.1') ? { host } : { refusal: `${typed} is this server itself. ${HINT}` };
  // A host whose last label is a number is an address to a resolver (as to a browser's URL parser).
  if (!/(^|\.)(0x[0-9a-f]*|\d+)$/.test(host)) return { host };
  if (!ipaddr.IPv4.isValid(host)) return { refusal: `${typed} is not a valid address. ${HINT}` };
  const parsed = ipaddr.IPv4.parse(host);
  const address = parsed.toString();
  const range = parsed.range();
  if (range === 'unicast' || allowed.includes(address)) return { host: address };
  const what = RANGE_WORDS[range] ?? `a ${range} address`;
  return { refusal: `${host === address ? `${address} is` : `${typed} is ${address},`} ${what}. ${HINT}` };
}

/** A refusal of the address connected to, said to the agency as it is (nothing secret in it). */
export class MailHostRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailHostRefused';
  }
}

/** The name could not be looked up (not found, or the lookup failed): worth waiting for. */
export class MailHostNotFound extends Error {
  constructor(host: string) {
    super(`${host} could not be found in DNS`);
    this.name = 'MailHostNotFound';
  }
}

/**
 * The address an agency's mail server is connected at: its host's, when every address the host
 * has is public (the website fetcher's rules) or allowed by the operator, else MailHostRefused.
 * The connection is made to this address, so the name cannot be pointed elsewhere between the
 * check and it.
 */
export async function checkedMailAddress(host: string, allowed: readonly string[]): Promise<string> {
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new MailHostNotFound(host);
  }
  if (addresses.length === 0) throw new MailHostNotFound(host);
  for (const address of addresses) {
    const refusal = allowed.includes(address) ? null : addressRefusal(address);
    if (refusal) throw new MailHostRefused(`${host} is not a mail server on the internet (${refusal}); private networks are not reached`);
  }
  return addresses[0]!;
}
