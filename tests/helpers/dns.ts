// A DNS server on a loopback UDP port that answers TXT questions from `txt` (name → values), so
// report-domain verification runs against real DNS packets through node's resolver. Other types
// and unknown names answer NXDOMAIN. `records` may be replaced between queries (read per query).
import { createSocket } from 'node:dgram';

export async function startDnsServer(txt: () => Record<string, string[]>) {
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
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the id
    header.writeUInt16BE(values ? 0x8180 : 0x8183, 2); // a response, recursion available; NXDOMAIN without an answer
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(values ? values.length : 0, 6);
    const answers = (values ?? []).map((value) => {
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
    });
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return { server: `127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}
