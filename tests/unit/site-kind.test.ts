// What a web address is before it is scored (issue 46, decision 0230): a platform's page decided
// from the address alone, by host suffix (any country domain, sub-domain or mobile host), and the
// shapes of a page that is not a website yet, in several languages, each on a short page only.
import { describe, expect, it } from 'vitest';
import { platformOf } from '../../api/report/analysis/site-kind.ts';
import { clientRedirect, parkedPage, passwordWall, placeholderPage } from '../../api/report/analysis/site-shapes.ts';

const page = (title: string, body: string, head = '') => `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;
const words = (html: string) => html.replace(/<head>[\s\S]*<\/head>/, '').replace(/<[^>]+>/g, ' ').trim().split(/\s+/).filter(Boolean).length;
const text = (html: string) => html.replace(/<head>[\s\S]*<\/head>/, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('a platform decided from the address', () => {
  it.each([
    ['https://m.facebook.com/BrightSmileATX/', 'social', 'Facebook'],
    ['fr-ca.facebook.com/pages/Boulangerie/123', 'social', 'Facebook'],
    ['https://fb.me/brightsmile', 'social', 'Facebook'],
    ['http://www.instagram.com/brightsmile.atx?igsh=1', 'social', 'Instagram'],
    ['https://www.tiktok.com/@brightsmile', 'social', 'TikTok'],
    ['https://twitter.com/brightsmile', 'social', 'X (Twitter)'],
    ['https://x.com/brightsmile', 'social', 'X (Twitter)'],
    ['https://uk.linkedin.com/company/brightsmile', 'social', 'LinkedIn'],
    ['https://www.yelp.co.uk/biz/bright-smile-london', 'social', 'Yelp'],
    ['https://www.yelp.com.au/biz/x', 'social', 'Yelp'],
    ['https://brightsmile.business.site/', 'social', 'Google Business Profile'],
    ['https://g.page/r/CXyz/review', 'social', 'Google Business Profile'],
    ['https://maps.app.goo.gl/AbCd', 'social', 'Google Business Profile'],
    ['https://www.google.co.uk/maps/place/Bright+Smile', 'social', 'Google Business Profile'],
    ['https://nextdoor.com/pages/bright-smile/', 'social', 'Nextdoor'],
    ['https://wa.me/15125550142', 'social', 'WhatsApp'],
    ['https://linktr.ee/brightsmile', 'link_in_bio', 'Linktree'],
    ['https://beacons.ai/brightsmile', 'link_in_bio', 'Beacons'],
    ['https://brightsmile.carrd.co/', 'link_in_bio', 'Carrd'],
    ['https://www.doordash.com/store/taqueria-123/', 'marketplace', 'DoorDash'],
    ['https://www.ubereats.com/store/taqueria/abc', 'marketplace', 'Uber Eats'],
    ['https://www.etsy.com/shop/CandleCo', 'marketplace', 'Etsy'],
    ['https://www.etsy.de/shop/KerzenKunst', 'marketplace', 'Etsy'],
    ['https://www.toasttab.com/taqueria/v3', 'marketplace', 'Toast'],
    ['https://booksy.com/en-us/123_barber', 'marketplace', 'Booksy'],
  ] as const)('%s is %s (%s)', (address, kind, name) => {
    expect(platformOf(address)).toEqual({ kind, name });
  });

  it.each([
    'https://brightsmile.com/',
    'https://www.google.com/',
    'https://dropbox.com/',
    'https://fax.com/',
    'https://myfacebook.com/',
    'https://facebook.com.brightsmile.com/',
    'https://brightsmile.wixsite.com/home',
    'https://brightsmile.square.site/',
    'not a url at all',
  ])('%s is an own website (or nothing)', (address) => {
    expect(platformOf(address)).toBeNull();
  });
});

describe('a parked or for-sale domain', () => {
  it.each([
    page('brightsmile.com', '<h1>brightsmile.com</h1><p>This domain may be for sale!</p>'),
    page('Ce domaine est à vendre', '<h1>boulangerie-paris.fr</h1><p>Faites une offre.</p>'),
    page('dominio', '<p>Este dominio está a la venta. Contáctenos.</p>'),
    page('domínio', '<p>Este domínio está à venda.</p>'),
    page('dominio', '<p>Questo dominio è in vendita</p>'),
    page('domein', '<p>Dit domein is te koop</p>'),
    page('', '<div id="park"></div>', '<script src="https://www.parkingcrew.net/js/park.js"></script>'),
    page('Buy this domain', '<p>Make an offer on this domain today.</p>'),
  ])('%#: parked', (html) => {
    expect(parkedPage(html, text(html), words(html))).toBe(true);
  });

  it('a real site that mentions domains for sale among its own pages is a site', () => {
    const long = page('Domain Brokers of Austin', `<h1>Domain brokers</h1><p>${'We help businesses buy and sell names; a domain may be for sale at any time. '.repeat(20)}</p>`);
    expect(parkedPage(long, text(long), words(long))).toBe(false);
  });
});

describe('a placeholder', () => {
  it.each([
    [page('Welcome to nginx!', '<h1>Welcome to nginx!</h1><p>If you see this page, the nginx web server is successfully installed.</p>'), /default page/],
    [page('Apache2 Ubuntu Default Page: It works', '<h1>It works!</h1>'), /default page/],
    [page('IIS Windows Server', '<img src="iisstart.png">'), /default page/],
    [page('Bäckerei Müller', '<h1>Bäckerei Müller</h1><p>Unsere Website ist im Aufbau.</p>'), /placeholder/],
    [page('Coming Soon', '<h1>Something great is coming soon</h1>'), /placeholder/],
    [page('Pizzeria Roma', '<p>Sito in costruzione</p>'), /placeholder/],
    [page('Salon', '<p>Site en construction — bientôt disponible</p>'), /placeholder/],
  ])('%#: %s', (html, kind) => {
    expect(placeholderPage(html, text(html), words(html))).toMatch(kind);
  });

  it('a finished homepage announcing a product "coming soon" is a site', () => {
    const html = page('Bright Smile Dental', `<h1>Family dentist</h1><p>${'Cleanings, whitening and implants for the whole family in downtown Austin. '.repeat(15)} Evening hours coming soon.</p>`);
    expect(placeholderPage(html, text(html), words(html))).toBeNull();
  });
});

describe('a password prompt', () => {
  it('401 with a login box, 403 or 200 with a short password form; not a 403 without one', () => {
    expect(passwordWall(401, { 'www-authenticate': 'Digest realm="x"' }, '', 0)).toBe('HTTP 401, a login box (Digest)');
    const form = page('Members', '<form><input type="password" name="pw"><button>Log in</button></form>');
    expect(passwordWall(403, {}, form, words(form))).toBe('HTTP 403, a page asking for a password');
    expect(passwordWall(200, {}, form, words(form))).toBe('HTTP 200, a page asking for a password');
    expect(passwordWall(403, {}, page('Forbidden', '<h1>Forbidden</h1>'), 1)).toBeNull();
  });
});

describe('a redirect by meta refresh or script', () => {
  const at = new URL('https://brightsmile.com/index.html');
  it.each([
    ['<meta http-equiv="refresh" content="0;url=https://www.brightsmile.com/">', 'meta refresh', 'https://www.brightsmile.com/'],
    ['<META HTTP-EQUIV="Refresh" CONTENT="3; URL=\'/en/\'">', 'meta refresh', 'https://brightsmile.com/en/'],
    ['<script>window.location.href = "https://brightsmile.net/home";</script>', 'script', 'https://brightsmile.net/home'],
    ['<script>location.replace(\'/start\')</script>', 'script', 'https://brightsmile.com/start'],
  ] as const)('%s', (head, by, to) => {
    const html = page('x', '', head);
    expect(clientRedirect(html, at, 0)).toEqual({ by, to });
  });

  it('a slow refresh, a refresh to itself, a script on a full page do not send the visitor on', () => {
    expect(clientRedirect(page('x', '', '<meta http-equiv="refresh" content="300">'), at, 0)).toBeNull();
    expect(clientRedirect(page('x', '', '<meta http-equiv="refresh" content="0;url=/index.html">'), at, 0)).toBeNull();
    expect(clientRedirect(page('x', '<p>many words</p>', '<script>if (a) location.href = "/x";</script>'), at, 200)).toBeNull();
  });
});
