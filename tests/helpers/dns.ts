// A DNS server on a loopback UDP port that answers TXT questions from `txt` (name → values), so
// report-domain verification runs against real DNS packets through node's resolver, and A/AAAA
// questions from `addresses` (webhook names). Unknown names answer NXDOMAIN; a known name without
// a record of the type asked, no answer. `records` may be replaced between queries (read per query).
import { createSocket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A name's addresses, or undefined when the name does not exist. */
export type AddressBook = (name: string) => string[] | undefined;

/** The test contexts' names: `.invalid` (RFC 6761) never resolves, `loopback.hooks.test` and
 *  `private.hooks.test` are ours or our network's, and any other name is a public host (the
 *  made-up receivers tests add endpoints with, which nothing delivers to). */
export const TEST_ADDRESS_BOOK: AddressBook = (name) => {
  if (name.endsWith('.invalid')) return undefined;
  if (name === 'loopback.hooks.test') return ['127.0.0.1', '::1'];
  if (name === 'private.hooks.test') return ['10.0.0.8'];
  if (name === 'metadata.hooks.test') return ['169.254.169.254'];
  return ['93.184.215.14'];
};

let shared: Promise<string> | undefined;
/** One server for every test context of the process (a socket that lives as long as it). */
export function sharedTestDns(): Promise<string> {
  shared ??= startDnsServer(() => ({}), TEST_ADDRESS_BOOK).then((dns) => {
    dns.unref();
    return dns.server;
  });
  return shared;
}

export async function startDnsServer(txt: () => Record<string, string[]>, addresses: AddressBook = () => undefined) {
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    if (query.length < 12) return;
    // The question: labels from byte 12 to the zero label, then type and class.
    const labels: string[] = [];
    let at = 12;
    while (at < query.length && query[at] !== 0) {
      const len = query[at]!;
      labels.push(query.subarray(at + 1, at + 1 + len).toString('latin1'));
      at += len + 1;
    }
    const questionEnd = at + 5;
    const type = query.readUInt16BE(at + 1);
    const name = labels.join('.').toLowerCase();
    const values = type === 16 ? txt()[name] : undefined;
    const known = type === 1 || type === 28 ? addresses(name) : undefined;
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the id
    header.writeUInt16BE(values || known ? 0x8180 : 0x8183, 2); // a response, recursion available; NXDOMAIN without an answer
    header.writeUInt16BE(1, 4);
    const ips = (known ?? []).filter((a) => (type === 1 ? isIPv4(a) : isIPv6(a)));
    header.writeUInt16BE(values ? values.length : ips.length, 6);
    const records = ips.map((ip) => {
      const rdata = Buffer.from(ipaddr.parse(ip).toByteArray());
      const fixed = Buffer.alloc(12);
      fixed.writeUInt16BE(0xc00c, 0);
      fixed.writeUInt16BE(type, 2);
      fixed.writeUInt16BE(1, 4);
      fixed.writeUInt32BE(60, 6);
      fixed.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([fixed, rdata]);
    });
    const answers = records.concat((values ?? []).map((value) => {
      const text = Buffer.from(value, 'utf8');
      const chunks: Buffer[] = [];
      for (let i = 0; i < text.length || i === 0; i += 255) {
        const part = text.subarray(i, i + 255);
        chunks.push(Buffer.from([part.length]), part);
      }
      const rdata = Buffer.concat(chunks);
      const fixed = Buffer.alloc(12);
      fixed.writeUInt16BE(0xc00c, 0); // the question's name
      fixed.writeUInt16BE(16, 2); // TXT
      fixed.writeUInt16BE(1, 4); // IN
      fixed.writeUInt32BE(60, 6);
      fixed.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([fixed, rdata]);
    }));
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return { server: `127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => socket.close(() => resolve())), unref: () => socket.unref() };
}
