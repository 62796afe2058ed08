import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOnPage, nameOnPage, phoneOnPage } from '../../api/report/analysis/data-points.ts';
import { analyseWebsite, extractFromHtml, siteRoot } from '../../api/report/analysis/website.ts';

const good = readFileSync(new URL('../fixtures/sites/good.html', import.meta.url), 'utf8');
const poor = readFileSync(new URL('../fixtures/sites/poor.html', import.meta.url), 'utf8');

describe('extraction on fixture HTML', () => {
  it('reads a well-kept site', () => {
    const x = extractFromHtml(good, new URL('https://brightsmile.example/'), { 'strict-transport-security': 'max-age=1', 'cache-control': 'max-age=60' });
    expect(x.https).toBe(true);
    expect(x.title).toBe('Bright Smile Dental | Family Dentist in Austin, TX');
    expect(x.metaDescription).toMatch(/^Bright Smile Dental offers/);
    expect(x.h1).toEqual(['Family dentist in downtown Austin']);
    expect(x.h2Count).toBe(1);
    expect(x.viewport && x.lang && x.canonical && x.charset).toBe(true);
    expect(x.schemaLocalBusiness).toBe(true);
    expect(x.schemaTypes).toEqual(['Dentist', 'WebSite']);
    expect(x.schemaAddress && x.schemaOpeningHours).toBe(true);
    expect(x.schemaPhone).toBe('+1-512-555-0142');
    expect(x.ogTitle && x.ogDescription && x.ogImage && x.twitterCard && x.favicon).toBe(true);
    expect(x.images).toBe(4);
    expect(x.imagesWithAlt).toBe(3);
    expect(x.copyrightYear).toBe(2026);
    expect(x.mixedContent).toBe(0);
    expect(x.hsts && x.cacheControl).toBe(true);
    expect(x.tech).toEqual({ cms: 'WordPress', ecommerce: null, booking: 'Calendly', chat: 'Intercom', analytics: ['Google Analytics'], tagManager: false });
    expect(x.ads).toMatchObject({ googleAds: true, metaPixel: true, tiktokPixel: false });
    expect(x.socials).toEqual({ facebook: true, instagram: true, linkedin: false, x: true, youtube: false, tiktok: false });
    expect(x.contactForm && x.callToAction && x.testimonials && x.openingHours && x.mapEmbed).toBe(true);
    expect(x.telLinks).toEqual(['+15125550142']);
    expect(x.mailtoLinks).toBe(1);
    expect(x.internalLinks).toBe(3);
    expect(x.phonesOnPage).toContain('5125550142');
  });

  it('reads a neglected site without failing on broken markup', () => {
    const x = extractFromHtml(poor, new URL('https://joes.example/'));
    expect(x.title).toBe('Home');
    expect(x.metaDescription).toBeNull();
    expect(x.h1).toHaveLength(2);
    expect(x.viewport || x.lang || x.schemaLocalBusiness || x.ogTitle || x.favicon).toBe(false);
    expect(x.images).toBe(2);
    expect(x.imagesWithAlt).toBe(0);
    expect(x.mixedContent).toBe(1);
    expect(x.copyrightYear).toBe(2017);
    expect(x.tech.cms).toBeNull();
    expect(x.contactForm || x.callToAction).toBe(false);
    expect(x.telLinks).toEqual([]);
    expect(x.phonesOnPage).toEqual(['5125550199']);
  });

  it('compares name, address and phone with the listing', () => {
    const page = { ...extractFromHtml(good, new URL('https://brightsmile.example/')) } as Parameters<typeof nameOnPage>[1];
    expect(nameOnPage('Bright Smile Dental', page)).toBe(true);
    expect(nameOnPage('Lakeline Orthodontics', page)).toBe(false);
    expect(phoneOnPage('(512) 555-0142', page)).toBe(true);
    expect(phoneOnPage('(512) 555-0100', page)).toBe(false);
    expect(addressOnPage('100 Congress Ave, Austin, TX 78701', page)).toBe(true);
    expect(addressOnPage('200 Lamar Blvd, Austin, TX 78701', page)).toBe(false);
  });

  it('finds robots.txt at the origin, and at the folder of a sample site', () => {
    expect(siteRoot(new URL('https://a.example/deep/page')).href).toBe('https://a.example/');
    expect(siteRoot(new URL('http://localhost:4321/api/sample-sites/abc123/contact')).href).toBe('http://localhost:4321/api/sample-sites/abc123/');
  });
});

describe('analyseWebsite over HTTP', () => {
  let server: Server;
  let base = '';
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/') return res.writeHead(301, { location: '/home' }).end();
      if (req.url === '/home') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(good);
      if (req.url === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nSitemap: /site-map.xml\n');
      if (req.url === '/site-map.xml') return res.writeHead(200).end('<?xml version="1.0"?><urlset><url><loc>/</loc></url></urlset>');
      if (req.url === '/broken') return res.writeHead(500).end('oops');
      res.writeHead(404).end('<html>not found</html>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('follows redirects and reads robots.txt and the sitemap it names', async () => {
    const a = await analyseWebsite(`${base}/`, { allowLoopback: true, extraPorts: [port], timeoutMs: 3000 });
    expect(a.reachable).toBe(true);
    expect(a.finalUrl).toBe(`${base}/home`);
    expect(a.redirects).toBe(1);
    expect(a.https).toBe(false);
    expect(a.robotsTxt && a.sitemap && a.sitemapInRobots).toBe(true);
    expect(a.pageWeightKb).toBeGreaterThan(1);
    expect(a.responseMs).toBeGreaterThanOrEqual(0);
  });

  it('reports an error status or a refused address as unreachable, never throwing', async () => {
    const broken = await analyseWebsite(`${base}/broken`, { allowLoopback: true, extraPorts: [port] });
    expect(broken.reachable).toBe(false);
    expect(broken.error).toBe('HTTP 500');
    const refused = await analyseWebsite(`${base}/home`, { extraPorts: [port] });
    expect(refused.reachable).toBe(false);
    expect(refused.error).toMatch(/^address:/);
  });
});
