// The sample provider's competitor websites, served by the product itself under
// /api/sample-sites/<site id>/ (decision 0041). The site id carries the business's profile
// (name, address, phone, category, a quality seed), so the pages are regenerated on every request
// with no state; the same id always gives the same site. The real website analyser reads them,
// over HTTP from a browser or in-process from the analysis (safe-fetch's `inProcess`).
import { escapeHtml } from '../../../common/html.ts';
import { SAMPLE_SITE_CSP } from '../../lib/security-headers.ts';
import { categoryById } from './categories.ts';
import { createRng } from './random.ts';

export const SAMPLE_SITES_PATH = '/api/sample-sites/';

export interface SiteProfile {
  /** name */
  n: string;
  /** street address line, city, state ZIP */
  a: string;
  /** phone as listed */
  p: string;
  /** category id */
  c: string;
  /** quality seed */
  q: number;
}

export function encodeSiteId(profile: SiteProfile): string {
  return Buffer.from(JSON.stringify(profile), 'utf8').toString('base64url');
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const printable = (s: string) => s.isWellFormed() && !CONTROL.test(s);

export function decodeSiteId(id: string): SiteProfile | null {
  if (!/^[A-Za-z0-9_-]{8,600}$/.test(id)) return null;
  try {
    const o = JSON.parse(Buffer.from(id, 'base64url').toString('utf8')) as Partial<SiteProfile>;
    if (typeof o.n !== 'string' || typeof o.a !== 'string' || typeof o.p !== 'string' || typeof o.c !== 'string' || typeof o.q !== 'number') return null;
    if (o.n.length > 120 || o.a.length > 200 || o.p.length > 40 || o.c.length > 60) return null;
    // Text a page can carry: no lone surrogate (it cannot be encoded into a URL or UTF-8) and no
    // control character (a NUL in a name is nobody's business name).
    if (![o.n, o.a, o.p, o.c].every(printable)) return null;
    return { n: o.n, a: o.a, p: o.p, c: o.c, q: o.q >>> 0 };
  } catch {
    return null;
  }
}

/** Whether an address is one of these pages (on whichever host served it). */
export function isSampleSiteUrl(url: string): boolean {
  try {
    return new URL(url).pathname.startsWith(SAMPLE_SITES_PATH);
  } catch {
    return false;
  }
}

export const sampleSiteUrl = (origin: string, profile: SiteProfile) => `${origin.replace(/\/$/, '')}${SAMPLE_SITES_PATH}${encodeSiteId(profile)}/`;

/** JSON inside a <script> block: `<`, `>`, `&` and the line separators as \u escapes, so no `</script>` can close it. */
export const jsonForScript = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

interface Features {
  tier: number;
  cms: 'wordpress' | 'squarespace' | 'wix' | 'shopify' | 'none';
  viewport: boolean;
  metaDescription: boolean;
  schema: boolean;
  openGraph: boolean;
  favicon: boolean;
  robots: boolean;
  sitemap: boolean;
  analytics: boolean;
  gtm: boolean;
  googleAds: boolean;
  metaPixel: boolean;
  booking: 'calendly' | 'zocdoc' | 'square' | 'none';
  chat: 'intercom' | 'tidio' | 'drift' | 'none';
  socials: string[];
  contactForm: boolean;
  telLink: boolean;
  mailto: boolean;
  altCoverage: number;
  copyrightYear: number;
  stalePhone: boolean;
  canonical: boolean;
  lang: boolean;
  hours: boolean;
  testimonials: boolean;
  newsletter: boolean;
  mapEmbed: boolean;
  images: number;
  paragraphs: number;
}

/** What a sample site has. Tier 0 is a neglected site, 1 an average one, 2 a polished one. */
export function sampleSiteFeatures(profile: SiteProfile, year: number): Features {
  const r = createRng(profile.q);
  const tier = r.pick([0, 1, 1, 2, 2, 2]);
  const p = [0.35, 0.7, 0.95][tier]!;
  const socials = ['facebook', 'instagram', 'linkedin', 'x', 'youtube', 'tiktok'].filter(() => r.chance(p * 0.7));
  return {
    tier,
    cms: r.pick(['wordpress', 'wordpress', 'squarespace', 'wix', profile.c === 'restaurant' ? 'shopify' : 'wordpress', 'none'] as const),
    viewport: r.chance(Math.min(1, p + 0.2)),
    metaDescription: r.chance(p),
    schema: r.chance(p * 0.8),
    openGraph: r.chance(p * 0.9),
    favicon: r.chance(Math.min(1, p + 0.15)),
    robots: r.chance(p),
    sitemap: r.chance(p * 0.9),
    analytics: r.chance(p),
    gtm: r.chance(p * 0.6),
    googleAds: r.chance(p * 0.5),
    metaPixel: r.chance(p * 0.5),
    booking: r.chance(p * 0.6) ? r.pick(['calendly', 'zocdoc', 'square'] as const) : 'none',
    chat: r.chance(p * 0.4) ? r.pick(['intercom', 'tidio', 'drift'] as const) : 'none',
    socials,
    contactForm: r.chance(p),
    telLink: r.chance(Math.min(1, p + 0.1)),
    mailto: r.chance(p * 0.8),
    altCoverage: [1, 0.75, 0.3][tier]! * (0.8 + r.next() * 0.2),
    copyrightYear: tier === 0 ? year - r.int(2, 6) : year - r.int(0, 1),
    stalePhone: r.chance(tier === 0 ? 0.5 : 0.1),
    canonical: r.chance(p),
    lang: r.chance(Math.min(1, p + 0.2)),
    hours: r.chance(p),
    testimonials: r.chance(p * 0.7),
    newsletter: r.chance(p * 0.4),
    mapEmbed: r.chance(p * 0.6),
    images: r.int(3, 12),
    paragraphs: tier === 0 ? r.int(1, 2) : r.int(3, 6),
  };
}

/** A look per tier: a tidy modern site, a plain template, a dated page. */
function siteStyle(tier: number, seed: number): string {
  const hue = seed % 360;
  if (tier === 2) {
    return `body{margin:0;font:16px/1.6 system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2937;background:#fff}header{display:flex;justify-content:space-between;align-items:center;padding:16px 5vw;background:hsl(${hue},55%,28%)}header a{color:#fff;text-decoration:none;margin-left:16px}header>a{font-weight:700;font-size:20px;margin:0}main{max-width:960px;margin:0 auto;padding:32px 5vw}h1{font-size:clamp(28px,5vw,44px);line-height:1.15;margin:8px 0 16px}ul{columns:2}img{width:100%;max-width:300px;height:auto;border-radius:10px;margin:6px}.button{display:inline-block;background:hsl(${hue},65%,42%);color:#fff;padding:12px 22px;border-radius:8px;text-decoration:none;font-weight:600;margin:16px 0}form{display:grid;gap:10px;max-width:420px;margin:24px 0}input,textarea,button{font:inherit;padding:10px;border:1px solid #d1d5db;border-radius:8px}button{background:#1f2937;color:#fff;border:0}blockquote{font-style:italic;border-left:4px solid hsl(${hue},65%,42%);margin:16px 0;padding-left:16px}iframe{width:100%;height:220px;border:0;background:#eef2f7}footer{background:#f3f4f6;padding:24px 5vw;font-size:14px}footer a{margin-right:12px;color:hsl(${hue},55%,30%)}`;
  }
  if (tier === 1) {
    return `body{margin:0;font:15px/1.5 Georgia,serif;color:#333;background:#fafafa}header{padding:12px 24px;border-bottom:3px solid hsl(${hue},40%,45%);background:#fff}header a{margin-right:14px;color:hsl(${hue},40%,35%)}main{max-width:860px;margin:0 auto;padding:16px 24px;background:#fff}img{width:45%;max-width:280px;height:auto;margin:4px}.button{background:hsl(${hue},40%,45%);color:#fff;padding:8px 14px;text-decoration:none}form{display:grid;gap:6px;max-width:380px}footer{padding:16px 24px;font-size:13px;color:#666}footer a{margin-right:10px}`;
  }
  return `body{font-family:'Times New Roman',serif;background:#ffffe8;color:#000;margin:8px}header a{margin-right:8px}img{width:160px;height:auto}h1{color:hsl(${hue},60%,35%)}`;
}

function otherPhone(phone: string): string {
  return phone.replace(/(\d)(\d)$/, (_m, a: string, b: string) => `${(Number(a) + 3) % 10}${b}`);
}

export function renderSamplePage(profile: SiteProfile, path: string, now = new Date()): { status: number; type: string; body: string } {
  const f = sampleSiteFeatures(profile, now.getUTCFullYear());
  const category = categoryById(profile.c);
  const slug = profile.n.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const phone = f.stalePhone ? otherPhone(profile.p) : profile.p;
  const telHref = `+1${phone.replace(/\D/g, '')}`;
  const email = `hello@${slug}.example`;
  const [street, ...rest] = profile.a.split(', ');
  const locality = rest.join(', ');

  if (path === 'robots.txt') {
    if (!f.robots) return { status: 404, type: 'text/plain', body: 'Not found' };
    return { status: 200, type: 'text/plain', body: `User-agent: *\nAllow: /\n${f.sitemap ? 'Sitemap: sitemap.xml\n' : ''}` };
  }
  if (path === 'sitemap.xml') {
    if (!f.sitemap) return { status: 404, type: 'text/plain', body: 'Not found' };
    return { status: 200, type: 'application/xml', body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>./</loc></url><url><loc>./contact</loc></url></urlset>\n` };
  }
  if (path === 'favicon.ico') {
    if (!f.favicon) return { status: 404, type: 'text/plain', body: 'Not found' };
    return { status: 200, type: 'image/svg+xml', body: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#3B82F6"/></svg>` };
  }
  const photo = /^img\/photo-(\d{1,2})\.jpg$/.exec(path);
  if (photo) {
    const i = Number(photo[1]);
    const hue = (profile.q + i * 47) % 360;
    const label = escapeHtml(category.services[i % category.services.length]!);
    return { status: 200, type: 'image/svg+xml', body: `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200"><rect width="320" height="200" fill="hsl(${hue},45%,82%)"/><circle cx="250" cy="60" r="34" fill="hsl(${hue},50%,70%)"/><text x="20" y="176" font-family="sans-serif" font-size="18" fill="hsl(${hue},40%,25%)">${label}</text></svg>` };
  }
  if (path !== '' && path !== 'contact') return { status: 404, type: 'text/html; charset=utf-8', body: '<!doctype html><title>Not found</title><h1>Not found</h1>' };

  const r = createRng(profile.q ^ 0x5bd1e995);
  const title = f.tier === 0 ? 'Home' : `${profile.n} | ${category.label} in ${locality.split(',')[0]}`;
  const description = `${profile.n} offers ${category.services.slice(0, 3).join(', ').toLowerCase()} in ${locality}. Call ${phone} to book.`;
  const head: string[] = ['<meta charset="utf-8">', `<title>${escapeHtml(title)}</title>`, `<style>${siteStyle(f.tier, profile.q)}</style>`];
  if (f.viewport) head.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  if (f.metaDescription) head.push(`<meta name="description" content="${escapeHtml(description)}">`);
  if (f.canonical) head.push('<link rel="canonical" href="./">');
  if (f.favicon) head.push('<link rel="icon" href="favicon.ico">');
  if (f.openGraph) head.push(`<meta property="og:title" content="${escapeHtml(profile.n)}">`, `<meta property="og:description" content="${escapeHtml(description)}">`, '<meta property="og:image" content="favicon.ico">', '<meta name="twitter:card" content="summary">');
  if (f.cms === 'wordpress') head.push('<meta name="generator" content="WordPress 6.6">', '<link rel="stylesheet" href="wp-content/themes/local/style.css">');
  if (f.cms === 'wix') head.push('<meta name="generator" content="Wix.com Website Builder">');
  if (f.cms === 'squarespace') head.push('<!-- This is Squarespace. -->', '<link rel="stylesheet" href="https://static1.squarespace.com/static/site.css">');
  if (f.cms === 'shopify') head.push('<link rel="stylesheet" href="https://cdn.shopify.com/s/files/theme.css">');
  if (f.schema) {
    const schema = { '@context': 'https://schema.org', '@type': 'LocalBusiness', name: profile.n, telephone: phone, address: { '@type': 'PostalAddress', streetAddress: street, addressLocality: locality }, ...(f.hours ? { openingHours: 'Mo-Fr 08:00-17:00' } : {}) };
    head.push(`<script type="application/ld+json">${jsonForScript(schema)}</script>`);
  }
  if (f.analytics) head.push('<script async src="https://www.googletagmanager.com/gtag/js?id=G-SAMPLE01"></script><script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());gtag("config","G-SAMPLE01");</script>');
  if (f.gtm) head.push('<script>(function(w,d,s,l,i){w[l]=w[l]||[];})(window,document,"script","dataLayer","GTM-SAMPLE");</script>');
  if (f.googleAds) head.push('<script>gtag("config","AW-1234567890");</script>');
  if (f.metaPixel) head.push('<script>!function(f,b,e,v,n,t,s){}(window,document,"script","https://connect.facebook.net/en_US/fbevents.js");fbq("init","1234567890");</script>');

  const images = Array.from({ length: f.images }, (_, i) => {
    const alt = i < Math.round(f.images * f.altCoverage) ? ` alt="${escapeHtml(`${category.services[i % category.services.length]} at ${profile.n}`)}"` : '';
    return `<img src="img/photo-${i + 1}.jpg" width="320" height="200"${alt}>`;
  });
  const town = locality.split(',')[0]!;
  const sentences = [
    `${profile.n} has served ${town} and the nearby neighbourhoods for ${5 + (profile.q % 20)} years.`,
    `We specialise in ${category.services[1]!.toLowerCase()} and ${category.services[3]!.toLowerCase()}, and we explain every option before we start.`,
    `What our clients mention most: ${r.pick(category.praise)}.`,
    `New clients are always welcome, and same-week appointments are usually available.`,
    `Our team trains every year so that each visit is simple, safe and on schedule.`,
    `We accept most major insurance plans and offer clear, upfront pricing.`,
    `Free parking is right outside, and the office is accessible for wheelchairs.`,
    `Questions? Call us or send a message and we will get back to you the same day.`,
    `Ask about ${category.services[5]!.toLowerCase()}: it is one of the services our clients value most.`,
    `Family owned and locally run since the day we opened.`,
    `Read what your neighbours say about us, then come and see for yourself.`,
    `We keep evening and Saturday hours for people who work during the day.`,
  ];
  const paragraphs = Array.from({ length: f.paragraphs }, (_, i) => `<p>${escapeHtml(sentences.slice(i * 2, i * 2 + 2).join(' '))}</p>`);
  const socials = f.socials.map((s) => `<a href="https://www.${s === 'x' ? 'x' : s}.com/${slug}">${s}</a>`);
  const body: string[] = [
    `<header><a href="./">${escapeHtml(profile.n)}</a><nav><a href="./">Home</a> <a href="contact">Contact</a></nav></header>`,
    '<main>',
    f.tier === 2 || path === 'contact' ? `<h1>${escapeHtml(path === 'contact' ? `Contact ${profile.n}` : `${category.label} in ${locality.split(',')[0]}`)}</h1>` : '',
    f.tier === 0 ? `<h1>Welcome</h1><h1>${escapeHtml(profile.n)}</h1>` : '',
    f.tier === 1 ? `<h1>${escapeHtml(profile.n)}</h1>` : '',
    `<h2>Services</h2><ul>${category.services.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>`,
    ...paragraphs,
    ...images,
    f.booking === 'calendly' ? '<a class="button" href="https://calendly.com/sample/appointment">Book an appointment</a><script src="https://assets.calendly.com/assets/external/widget.js"></script>' : '',
    f.booking === 'zocdoc' ? '<a class="button" href="https://www.zocdoc.com/practice/sample">Book online</a>' : '',
    f.booking === 'square' ? '<a class="button" href="https://squareup.com/appointments/book/sample">Schedule now</a>' : '',
    f.testimonials ? `<section class="testimonials"><h2>Testimonials</h2><blockquote>${escapeHtml(`“${r.pick(category.praise)}”`)}</blockquote></section>` : '',
    f.hours ? '<section><h2>Hours</h2><p>Monday-Friday 8am-5pm</p></section>' : '',
    f.contactForm ? '<form method="post" action="contact"><label>Name <input name="name"></label><label>Email <input type="email" name="email"></label><label>Message <textarea name="message"></textarea></label><button type="submit">Send</button></form>' : '',
    f.newsletter ? '<form class="newsletter"><input type="email" name="newsletter" placeholder="Your e-mail"><button>Subscribe</button></form>' : '',
    f.mapEmbed ? `<iframe src="https://www.google.com/maps/embed?q=${encodeURIComponent(profile.a)}" title="Map"></iframe>` : '',
    '</main>',
    `<footer><address>${escapeHtml(street ?? '')}<br>${escapeHtml(locality)}</address>`,
    f.telLink ? `<a href="tel:${telHref}">${escapeHtml(phone)}</a>` : `<span>${escapeHtml(phone)}</span>`,
    f.mailto ? `<a href="mailto:${email}">${email}</a>` : '',
    socials.join(' '),
    `<p>&copy; ${f.copyrightYear} ${escapeHtml(profile.n)}. All rights reserved.</p></footer>`,
    f.chat === 'intercom' ? '<script src="https://widget.intercom.io/widget/sample"></script>' : '',
    f.chat === 'tidio' ? '<script src="https://code.tidio.co/sample.js"></script>' : '',
    f.chat === 'drift' ? '<script src="https://js.driftt.com/include/sample.js"></script>' : '',
    f.cms === 'wix' ? '<script src="https://static.parastorage.com/services/wix-thunderbolt/dist/main.js"></script>' : '',
  ];
  const html = `<!doctype html>\n<html${f.lang ? ' lang="en"' : ''}>\n<head>\n${head.join('\n')}\n</head>\n<body>\n${body.filter(Boolean).join('\n')}\n</body>\n</html>\n`;
  return { status: 200, type: 'text/html; charset=utf-8', body: html };
}

/** The Response for a sample-site URL path after the prefix: `<id>/` or `<id>/<file>`. */
export function sampleSiteResponse(rest: string, now = new Date()): Response {
  const [id, ...parts] = rest.split('/');
  const profile = id ? decodeSiteId(id) : null;
  if (!profile) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  const page = renderSamplePage(profile, parts.join('/'), now);
  return new Response(page.body, { status: page.status, headers: { 'content-type': page.type, 'cache-control': 'public, max-age=3600', 'content-security-policy': SAMPLE_SITE_CSP } });
}
