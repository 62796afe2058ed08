// Local stand-ins for the websites the real web has (decision 0217), each on its own port of
// 127.0.0.1 (robots.txt, the sitemap and the favicon live at each site's root):
//
//   ok          a well-kept page (tests/fixtures/sites/good.html)
//   bot-403     403 to any client that does not say it is a browser (robots.txt and the sitemap to all); the page to browsers
//   challenge   a Cloudflare-style challenge page, HTTP 503 with cf-mitigated: challenge, on every path
//   sucuri      a Sucuri-style firewall block page, HTTP 403, on every path
//   trickle     the page, 40 bytes every 200 ms (a page that takes minutes to arrive)
//   huge        a 10 MB homepage (the well-kept page with 10 MB of text in its body), no Content-Length
//   js-shell    an empty <div id="root"> a script fills in
//   down        a port nothing listens on
//   error-5xx   503 on every request (counted)
//
// Decision 0230, each in a shape other than the ones issue 46 saw:
//   parked          a registrar's parking page in German ("Diese Domain steht zum Verkauf") loading a parking script
//   placeholder     a "Próximamente" coming-soon page (Spanish)
//   server-default  a web server's default page ("Welcome to nginx!")
//   meta-refresh    a page whose meta refresh (quoted URL, upper case) sends the visitor to /home/, the well-kept page
//   script-redirect a page whose script replaces the location with /home/
//   password-401    HTTP 401 with a Basic login box
//   password-form   a store locked until it opens: 200, a short page asking for a password
//   not-found       404 on the homepage (an error page: the server answered)
//   tls-self-signed the well-kept page over HTTPS with a self-signed certificate (tests/fixtures/certs)
//   tls-expired     ... with a certificate that expired on 2021-01-01
//   tls-wrong-name  ... with a certificate made for shop.example.net
//
// Runnable for `npm run report`: `node tests/helpers/site-standins.ts` prints each case's URL and the
// command that reports on it. Listens on 127.0.0.1 only.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export const SITE_CASES = ['ok', 'bot-403', 'challenge', 'sucuri', 'trickle', 'huge', 'js-shell', 'down', 'error-5xx', 'parked', 'placeholder', 'server-default', 'meta-refresh', 'script-redirect', 'password-401', 'password-form', 'not-found', 'tls-self-signed', 'tls-expired', 'tls-wrong-name'] as const;
const TLS_CERTS: Partial<Record<SiteCase, string>> = { 'tls-self-signed': 'self-signed', 'tls-expired': 'expired', 'tls-wrong-name': 'wrong-name' };
export type SiteCase = (typeof SITE_CASES)[number];

export interface SiteStandins {
  url: Record<SiteCase, string>;
  ports: number[];
  /** Requests each case's server received for its homepage. */
  hits: Record<SiteCase, number>;
  close: () => Promise<void>;
}

const GOOD = readFileSync(new URL('../fixtures/sites/good.html', import.meta.url), 'utf8');
const HUGE_BYTES = 10 * 1024 * 1024;
const isBrowser = (req: IncomingMessage) => /Mozilla\/5\.0 .*(Chrome|Firefox|Safari)\//.test(req.headers['user-agent'] ?? '');

const CHALLENGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta name="robots" content="noindex,nofollow"></head><body><div class="main-wrapper" role="main"><div class="main-content"><noscript><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></noscript></div></div><script>(function(){window._cf_chl_opt={cvId: '3',cZone: "example.com",cType: 'managed'};var cpo = document.createElement('script');cpo.src = '/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1';document.getElementsByTagName('head')[0].appendChild(cpo);}());</script></body></html>`;
const SUCURI = `<!DOCTYPE html><html><head><title>Sucuri WebSite Firewall - Access Denied</title></head><body><div id="main-container"><h1>Access Denied - Sucuri Website Firewall</h1><p>If you are the site owner (or you manage this site), please whitelist your IP.</p></div></body></html>`;
const SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bright Smile Dental | Family Dentist in Austin, TX</title><script type="module" crossorigin src="/assets/index-4f2a.js"></script><link rel="stylesheet" href="/assets/index-9c1d.css"></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>`;

const PARKED = `<!DOCTYPE html><html lang="de"><head><meta charset="utf-8"><title>brightsmile-austin.de - Diese Domain steht zum Verkauf</title><script src="//img.sedoparking.com/js/frame.js"></script></head><body><div class="container"><h1>brightsmile-austin.de</h1><p>Diese Domain steht zum Verkauf! Jetzt kaufen.</p><a href="https://sedo.com/search/details/?domain=brightsmile-austin.de">Domain kaufen</a><p>Verwandte Links: Zahnarzt, Zahnreinigung, Implantate</p></div></body></html>`;
const PLACEHOLDER = `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Clínica Dental Sonrisa</title></head><body><main><h1>Clínica Dental Sonrisa</h1><p>¡Próximamente! Nuestro nuevo sitio web estará disponible muy pronto.</p><p>Llámenos al <a href="tel:+15125550142">(512) 555-0142</a></p></main></body></html>`;
const NGINX = `<!DOCTYPE html><html><head><title>Welcome to nginx!</title><style>html { color-scheme: light dark; } body { width: 35em; margin: 0 auto; font-family: Tahoma, Verdana, Arial, sans-serif; }</style></head><body><h1>Welcome to nginx!</h1><p>If you see this page, the nginx web server is successfully installed and working. Further configuration is required.</p><p>For online documentation and support please refer to <a href="http://nginx.org/">nginx.org</a>.<br/>Commercial support is available at <a href="http://nginx.com/">nginx.com</a>.</p><p><em>Thank you for using nginx.</em></p></body></html>`;
const META_REFRESH = `<html><head><META HTTP-EQUIV="Refresh" CONTENT="0; URL='/home/'"><title>Redirecting</title></head><body>Redirecting…</body></html>`;
const SCRIPT_REDIRECT = `<!doctype html><html><head><title>Bright Smile Dental</title><script>window.location.replace("/home/");</script></head><body><p>Loading</p></body></html>`;
const PASSWORD_FORM = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bright Smile Dental – Opening soon</title></head><body><main><h1>Opening soon</h1><form method="post" action="/password"><label for="pw">Enter store password</label><input type="password" name="password" id="pw"><button type="submit">Enter</button></form><p>Are you the store owner? <a href="/admin">Log in here</a></p></main></body></html>`;
const TLS_DIR = new URL('../fixtures/certs/', import.meta.url);

function files(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nSitemap: /sitemap.xml\n'), true;
  if (req.url === '/sitemap.xml') return void res.writeHead(200, { 'content-type': 'application/xml' }).end('<?xml version="1.0"?><urlset><url><loc>/</loc></url></urlset>'), true;
  if (req.url !== '/' && req.url !== '/index.html') return void res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>'), true;
  return false;
}

function handler(name: SiteCase, hits: Record<SiteCase, number>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (name === 'challenge') {
      if (req.url === '/' || req.url === '/index.html') hits[name]++;
      return res.writeHead(503, { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare', 'cf-mitigated': 'challenge', 'cache-control': 'private, max-age=0, no-store' }).end(CHALLENGE);
    }
    if (name === 'sucuri') {
      if (req.url === '/' || req.url === '/index.html') hits[name]++;
      return res.writeHead(403, { 'content-type': 'text/html', server: 'Sucuri/Cloudproxy', 'x-sucuri-block': 'BNP001' }).end(SUCURI);
    }
    // The 403 site's firewall lets anyone read robots.txt and the sitemap.
    if (name === 'bot-403' && !isBrowser(req) && req.url !== '/robots.txt' && req.url !== '/sitemap.xml') {
      if (req.url === '/' || req.url === '/index.html') hits[name]++;
      return res.writeHead(403, { 'content-type': 'text/html' }).end('<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1></body></html>');
    }
    if (name === 'password-401') {
      if (req.url === '/' || req.url === '/index.html') hits[name]++;
      return res.writeHead(401, { 'content-type': 'text/html', 'www-authenticate': 'Basic realm="Staging"' }).end('<html><head><title>401 Authorization Required</title></head><body><h1>401 Authorization Required</h1></body></html>');
    }
    if ((name === 'meta-refresh' || name === 'script-redirect') && req.url === '/home/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(GOOD);
    if (files(req, res)) return;
    hits[name]++;
    const page = { parked: PARKED, placeholder: PLACEHOLDER, 'server-default': NGINX, 'meta-refresh': META_REFRESH, 'script-redirect': SCRIPT_REDIRECT, 'password-form': PASSWORD_FORM } as Partial<Record<SiteCase, string>>;
    if (page[name]) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page[name]);
    if (name === 'not-found') return res.writeHead(404, { 'content-type': 'text/html' }).end('<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>');
    if (name === 'error-5xx') return res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '1' }).end('<html><body><h1>Service Unavailable</h1></body></html>');
    if (name === 'js-shell') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SHELL);
    if (name === 'trickle') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed || at >= GOOD.length) {
          clearInterval(timer);
          return void res.end();
        }
        res.write(GOOD.slice(at, at + 40));
        at += 40;
      }, 200);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (name === 'huge') {
      // The page's head and first screen, then 10 MB of text, then its footer: streamed, no length.
      const cut = GOOD.indexOf('</body>');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write(GOOD.slice(0, cut));
      const para = `<p>${'Family dentistry in downtown Austin: cleanings, whitening, implants and emergency care. '.repeat(40)}</p>\n`;
      let sent = 0;
      const more = () => {
        while (sent < HUGE_BYTES) {
          sent += para.length;
          if (!res.write(para)) return void res.once('drain', more);
        }
        res.end(GOOD.slice(cut));
      };
      res.on('error', () => {});
      return more();
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(GOOD);
  };
}

export async function startSiteStandins(): Promise<SiteStandins> {
  const hits = Object.fromEntries(SITE_CASES.map((c) => [c, 0])) as Record<SiteCase, number>;
  const servers: Server[] = [];
  const url = {} as Record<SiteCase, string>;
  const ports: number[] = [];
  for (const name of SITE_CASES) {
    const pem = TLS_CERTS[name] ? readFileSync(new URL(`${TLS_CERTS[name]}.pem`, TLS_DIR), 'utf8') : null;
    const server: Server = pem ? createTlsServer({ key: pem, cert: pem }, handler(name, hits)) : createServer(handler(name, hits));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    ports.push(port);
    url[name] = `${pem ? 'https' : 'http'}://127.0.0.1:${port}/`;
    servers.push(server);
  }
  // Nothing listens on the down case's port once every other server has its own.
  const down = servers.splice(SITE_CASES.indexOf('down'), 1)[0]!;
  await new Promise<void>((r) => down.close(() => r()));
  return {
    url,
    ports,
    hits,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())))));
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await startSiteStandins();
  console.log(`Site stand-ins on 127.0.0.1 (Ctrl-C to stop). Report on one with:`);
  for (const name of SITE_CASES) {
    console.log(`\n# ${name}\nSITE_FETCH_PORTS=${s.ports.join(',')} npm run report -- --company "Bright Smile Dental" --address "100 Congress Ave" --city Austin --state TX --zip 78701 --website ${s.url[name]} --sites-on-loopback`);
  }
}
