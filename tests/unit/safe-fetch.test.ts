import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { lookup } from 'node:dns';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressRefusal, safeFetch, SafeFetchError } from '../../api/lib/safe-fetch.ts';

async function refusal(url: string, options: Parameters<typeof safeFetch>[1] = {}) {
  try {
    await safeFetch(url, { timeoutMs: 2000, ...options });
  } catch (error) {
    expect(error).toBeInstanceOf(SafeFetchError);
    return (error as SafeFetchError).reason;
  }
  throw new Error(`${url} was fetched`);
}

describe('safe fetch refuses hostile URLs before connecting', () => {
  const hostile: Array<[string, string]> = [
    ['loopback', 'http://127.0.0.1/'],
    ['loopback, short form', 'http://127.1/'],
    ['loopback, decimal', 'http://2130706433/'],
    ['loopback, hex', 'http://0x7f000001/'],
    ['loopback, octal', 'http://0177.0.0.1/'],
    ['loopback, other /8 address', 'http://127.53.0.9/'],
    ['unspecified', 'http://0.0.0.0/'],
    ['private 10/8', 'http://10.1.2.3/'],
    ['private 172.16/12', 'http://172.16.0.1/'],
    ['private 192.168/16', 'http://192.168.1.1/'],
    ['metadata, link-local', 'http://169.254.169.254/latest/meta-data/'],
    ['CGNAT', 'http://100.64.0.1/'],
    ['multicast', 'http://224.0.0.1/'],
    ['broadcast', 'http://255.255.255.255/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['IPv6 unspecified', 'http://[::]/'],
    ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped IPv6, long form', 'http://[0:0:0:0:0:ffff:7f00:1]/'],
    ['IPv4-mapped IPv6 metadata', 'http://[::ffff:169.254.169.254]/'],
    ['IPv6 unique local', 'http://[fd00::1]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['NAT64 to a private address', 'http://[64:ff9b::10.0.0.1]/'],
    ['NAT64 to the metadata address', 'http://[64:ff9b::a9fe:a9fe]/'],
    ['IPv4-compatible IPv6 metadata', 'http://[::169.254.169.254]/'],
    ['IPv4-compatible IPv6 metadata, hex', 'http://[::a9fe:a9fe]/'],
    ['IPv4-compatible IPv6 private 10/8', 'http://[::a00:1]/'],
    ['IPv4-compatible IPv6 private 192.168/16', 'http://[::c0a8:101]/'],
    ['IPv4-compatible IPv6 loopback', 'http://[::127.0.0.1]/'],
    ['IPv4-compatible IPv6 public address (the whole block)', 'http://[::808:808]/'],
    ['localhost', 'http://localhost/'],
    ['localhost with a dot', 'http://localhost./'],
    ['subdomain of localhost', 'http://app.localhost/'],
  ];
  for (const [name, url] of hostile) {
    it(`${name}: ${url}`, async () => {
      expect(await refusal(url)).toBe('address');
    });
  }

  it('refuses other schemes, ports and credentials', async () => {
    expect(await refusal('file:///etc/passwd')).toBe('scheme');
    expect(await refusal('ftp://example.com/')).toBe('scheme');
    expect(await refusal('gopher://example.com/')).toBe('scheme');
    expect(await refusal('http://93.184.215.14:8080/')).toBe('port');
    expect(await refusal('http://93.184.215.14:22/')).toBe('port');
    expect(await refusal('http://user:pass@93.184.215.14/')).toBe('credentials');
    expect(await refusal('not a url')).toBe('scheme');
  });

  it('refuses a hostname that resolves to loopback or a private address', async () => {
    const fakeDns = (answer: string, family: 4 | 6) =>
      ((_host: string, _opts: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) => cb(null, [{ address: answer, family }])) as unknown as typeof lookup;
    expect(await refusal('http://internal.example/', { resolver: fakeDns('127.0.0.1', 4) })).toBe('address');
    expect(await refusal('http://internal.example/', { resolver: fakeDns('10.0.0.7', 4) })).toBe('address');
    expect(await refusal('http://internal.example/', { resolver: fakeDns('::ffff:127.0.0.1', 6) })).toBe('address');
    expect(await refusal('http://internal.example/', { resolver: fakeDns('fd12::1', 6) })).toBe('address');
  });

  it('classifies public unicast addresses as allowed', () => {
    expect(addressRefusal('93.184.215.14')).toBeNull();
    expect(addressRefusal('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toBeNull();
    expect(addressRefusal('127.0.0.1')).toMatch(/loopback/);
    expect(addressRefusal('127.0.0.1', true)).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1', true)).toMatch(/ipv4Mapped/);
    for (const a of ['::a00:1', '::a9fe:a9fe', '::c0a8:101', '::7f00:1', '::808:808', '0:0:0:0:0:0:a9fe:a9fe']) expect(addressRefusal(a), a).toMatch(/IPv4-compatible/);
    expect(addressRefusal('::7f00:1', true), 'loopback allowance does not open ::/96').toMatch(/IPv4-compatible/);
    // ::1 and :: sit inside ::/96 but are named for what they are.
    expect(addressRefusal('::1')).toBe('::1 is loopback');
    expect(addressRefusal('::1', true)).toBeNull();
    expect(addressRefusal('::')).toBe(':: is unspecified');
    for (const a of ['64:ff9b::a00:1', '64:ff9b::a9fe:a9fe', '64:ff9b::7f00:1', '64:ff9b::c0a8:101']) expect(addressRefusal(a), a).toMatch(/NAT64/);
    expect(addressRefusal('64:ff9b::808:808'), 'NAT64 to a public address').toBeNull();
  });
});

describe('safe fetch against a local server (loopback allowed explicitly)', () => {
  let server: Server;
  let port = 0;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = req.url ?? '/';
      if (url === '/ok') return res.end('<html><title>ok</title></html>');
      if (url === '/to-metadata') return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (url === '/to-private-name') return res.writeHead(302, { location: 'http://10.0.0.5/admin' }).end();
      if (url === '/to-mapped') return res.writeHead(302, { location: `http://[::ffff:127.0.0.1]:${port}/ok` }).end();
      if (url === '/to-file') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      if (url === '/hop') return res.writeHead(302, { location: '/ok' }).end();
      if (url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (url === '/big-declared') return res.writeHead(200, { 'content-length': 5000 }).end('x'.repeat(5000));
      if (url === '/big-chunked') {
        res.writeHead(200);
        for (let i = 0; i < 10; i++) res.write('y'.repeat(500));
        return res.end();
      }
      if (url === '/gzip') return res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('<title>zipped</title>'));
      if (url === '/gzip-bomb') return res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(50_000)));
      if (url === '/latin1') return res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' }).end(Buffer.from('<title>Caf\xe9</title>', 'latin1'));
      if (url === '/slow') return setTimeout(() => res.end('late'), 3000);
      if (url === '/drip') {
        res.writeHead(200);
        res.write('<title>first</title>');
        const timer = setInterval(() => res.write('.'), 50);
        return void res.on('close', () => clearInterval(timer));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

  const local = () => ({ allowLoopback: true, extraPorts: [port], timeoutMs: 2000 });

  it('fetches an allowed page and follows a same-site redirect', async () => {
    const res = await safeFetch(`${base}/hop`, local());
    expect(res.status).toBe(200);
    expect(res.text()).toContain('<title>ok</title>');
    expect(res.redirects).toEqual([`${base}/ok`]);
    expect(res.address).toBe('127.0.0.1');
  });

  it('still refuses loopback without the explicit allowance', async () => {
    expect(await refusal(`${base}/ok`, { extraPorts: [port] })).toBe('address');
  });

  it('refuses the IPv4-compatible spelling of a listening loopback server, even where loopback is allowed', async () => {
    expect(await refusal(`http://[::127.0.0.1]:${port}/ok`, local())).toBe('address');
    expect(await refusal(`http://[::7f00:1]:${port}/ok`, { extraPorts: [port] })).toBe('address');
  });

  it('checks every redirect: to the metadata address, a private address, a mapped address, another scheme', async () => {
    expect(await refusal(`${base}/to-metadata`, local())).toBe('address');
    expect(await refusal(`${base}/to-private-name`, local())).toBe('address');
    expect(await refusal(`${base}/to-mapped`, local())).toBe('address');
    expect(await refusal(`${base}/to-file`, local())).toBe('scheme');
  });

  it('connects through its own DNS lookup to an allowed answer', async () => {
    const resolver = ((_host: string, _opts: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) => cb(null, [{ address: '127.0.0.1', family: 4 }])) as unknown as typeof lookup;
    const res = await safeFetch(`http://fixture.test:${port}/ok`, { ...local(), resolver });
    expect(res.status).toBe(200);
    expect(res.address).toBe('127.0.0.1');
  });

  it('stops after 5 redirects', async () => {
    expect(await refusal(`${base}/loop`, local())).toBe('redirects');
  });

  it('enforces the size limit, declared or streamed', async () => {
    expect(await refusal(`${base}/big-declared`, { ...local(), maxBytes: 1000 })).toBe('too_large');
    expect(await refusal(`${base}/big-chunked`, { ...local(), maxBytes: 1000 })).toBe('too_large');
  });

  it('decodes a compressed body within the size limit', async () => {
    expect((await safeFetch(`${base}/gzip`, local())).text()).toBe('<title>zipped</title>');
    expect(await refusal(`${base}/gzip-bomb`, { ...local(), maxBytes: 10_000 })).toBe('too_large');
  });

  it('reads the charset the server names', async () => {
    expect((await safeFetch(`${base}/latin1`, local())).text()).toBe('<title>Café</title>');
  });

  it('enforces the time limit', async () => {
    expect(await refusal(`${base}/slow`, { ...local(), timeoutMs: 300 })).toBe('timeout');
  });

  it('with `partial`, keeps the first part of a body past the limits instead of failing (decision 0217)', async () => {
    const declared = await safeFetch(`${base}/big-declared`, { ...local(), maxBytes: 1000, partial: true });
    expect({ kept: declared.body.length, truncated: declared.truncated, size: declared.size, exact: declared.sizeExact }).toEqual({ kept: 1000, truncated: 'size', size: 5000, exact: true });
    // No declared length: the rest is counted, not kept.
    const chunked = await safeFetch(`${base}/big-chunked`, { ...local(), maxBytes: 1000, partial: true });
    expect({ kept: chunked.body.length, truncated: chunked.truncated, size: chunked.size, exact: chunked.sizeExact }).toEqual({ kept: 1000, truncated: 'size', size: 5000, exact: true });
    // A body still arriving at the time limit is what arrived; its size a lower bound.
    const drip = await safeFetch(`${base}/drip`, { ...local(), timeoutMs: 400, partial: true });
    expect(drip.truncated).toBe('time');
    expect(drip.sizeExact).toBe(false);
    expect(drip.text()).toMatch(/^<title>first<\/title>\.+$/);
    // Headers that never come are still a timeout.
    expect(await refusal(`${base}/slow`, { ...local(), timeoutMs: 300, partial: true })).toBe('timeout');
    // Without it, the same drip is an error.
    expect(await refusal(`${base}/drip`, { ...local(), timeoutMs: 300 })).toBe('timeout');
  });

  it('answers the product\'s own sample-site prefix in-process, and only that prefix', async () => {
    const inProcess = { prefix: 'http://localhost/api/sample-sites/', handle: () => new Response('<title>sample</title>', { status: 200 }) };
    const res = await safeFetch('http://localhost/api/sample-sites/abc/', { inProcess });
    expect(res.address).toBe('in-process');
    expect(res.text()).toContain('sample');
    expect(await refusal('http://localhost/api/health', { inProcess })).toBe('address');
  });
});

// A certificate a browser would warn about (decision 0230): refused by default with its own
// reason, never "network"; read past, and named, only when the caller asks to report it.
describe('certificates', () => {
  const pems = ['self-signed', 'expired', 'wrong-name'] as const;
  const servers: Array<import('node:https').Server> = [];
  const url = {} as Record<(typeof pems)[number], string>;
  beforeAll(async () => {
    const { createServer: createTls } = await import('node:https');
    const { readFileSync } = await import('node:fs');
    for (const name of pems) {
      const pem = readFileSync(new URL(`../fixtures/certs/${name}.pem`, import.meta.url), 'utf8');
      const server = createTls({ key: pem, cert: pem }, (_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>ok</title>'));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      servers.push(server);
      url[name] = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    }
  });
  afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));
  const ports = () => Object.values(url).map((u) => Number(new URL(u).port));

  it.each(pems)('%s: refused as a certificate problem by default', async (name) => {
    expect(await refusal(url[name], { allowLoopback: true, extraPorts: ports() })).toBe('certificate');
  });

  it.each([['self-signed', 'self_signed'], ['expired', 'expired'], ['wrong-name', 'name']] as const)('%s: read and named with certificates: report', async (name, problem) => {
    const res = await safeFetch(url[name], { allowLoopback: true, extraPorts: ports(), timeoutMs: 2000, certificates: 'report' });
    expect(res.status).toBe(200);
    expect(res.certificate?.problem).toBe(problem);
    if (problem === 'expired') expect(res.certificate?.expiredAt).toBe('2021-01-01T00:00:00.000Z');
    if (problem === 'name') expect(res.certificate?.names).toBe('shop.example.net');
  });
});
