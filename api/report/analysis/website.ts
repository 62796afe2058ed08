// Stage 5: what a website shows, read through the one safe fetcher and parsed with cheerio.
// The homepage, robots.txt, the sitemap and the favicon are fetched; everything else is read from
// the homepage's HTML and headers. Tech stack, analytics and ad pixels are recognised by the rule
// table below (signatures in URLs, generator tags and inline scripts).
import * as cheerio from 'cheerio';
import { digitsOnly } from '../../../common/constants.ts';
import { safeFetch, SafeFetchError, type SafeFetchOptions, type SafeResponse } from '../../lib/safe-fetch.ts';
import { SAMPLE_SITES_PATH } from './sample-sites.ts';

export interface WebsiteAnalysis {
  url: string;
  reachable: boolean;
  error: string | null;
  finalUrl: string | null;
  https: boolean;
  status: number | null;
  responseMs: number | null;
  pageWeightKb: number | null;
  redirects: number;
  title: string | null;
  metaDescription: string | null;
  h1: string[];
  h2Count: number;
  viewport: boolean;
  lang: boolean;
  canonical: boolean;
  charset: boolean;
  schemaTypes: string[];
  schemaLocalBusiness: boolean;
  schemaAddress: boolean;
  schemaOpeningHours: boolean;
  schemaPhone: string | null;
  ogTitle: boolean;
  ogDescription: boolean;
  ogImage: boolean;
  twitterCard: boolean;
  favicon: boolean;
  robotsTxt: boolean;
  sitemap: boolean;
  sitemapInRobots: boolean;
  wordCount: number;
  internalLinks: number;
  externalLinks: number;
  images: number;
  imagesWithAlt: number;
  scripts: number;
  stylesheets: number;
  copyrightYear: number | null;
  mixedContent: number;
  hsts: boolean;
  compressed: boolean;
  cacheControl: boolean;
  tech: { cms: string | null; ecommerce: string | null; booking: string | null; chat: string | null; analytics: string[]; tagManager: boolean };
  ads: { googleAds: boolean; metaPixel: boolean; tiktokPixel: boolean; linkedinInsight: boolean; bingAds: boolean };
  socials: Record<'facebook' | 'instagram' | 'linkedin' | 'x' | 'youtube' | 'tiktok', boolean>;
  contactForm: boolean;
  telLinks: string[];
  mailtoLinks: number;
  newsletter: boolean;
  callToAction: boolean;
  testimonials: boolean;
  openingHours: boolean;
  mapEmbed: boolean;
  pageText: string;
  phonesOnPage: string[];
  /** Structured data: a telephone, geo coordinates, sameAs profile links, a price range. */
  schemaGeo: boolean;
  schemaSameAs: number;
  schemaPriceRange: boolean;
  /** Security headers of the homepage response. */
  csp: boolean;
  xContentTypeOptions: boolean;
  frameProtection: boolean;
  referrerPolicy: boolean;
  permissionsPolicy: boolean;
  /** Technical signals. */
  doctype: boolean;
  noindex: boolean;
  renderBlockingScripts: number;
  lazyImages: number;
  modernImages: number;
  preconnectHints: number;
  themeColor: boolean;
  appleTouchIcon: boolean;
  deprecatedTags: number;
  landmarks: boolean;
  skipLink: boolean;
  /** Contact paths and pages. */
  contactPage: boolean;
  aboutPage: boolean;
  privacyPage: boolean;
  smsLink: boolean;
  whatsappLink: boolean;
  directionsLink: boolean;
  reviewLink: boolean;
  emailOnPage: boolean;
  videoEmbed: boolean;
  inlineScriptKb: number;
}

/** Signature rules: the first matching rule of a kind wins. */
const RULES = {
  cms: [
    { name: 'WordPress', re: /wp-content|wp-includes|content="WordPress/i },
    { name: 'Squarespace', re: /squarespace/i },
    { name: 'Wix', re: /wix\.com|parastorage\.com/i },
    { name: 'Shopify', re: /cdn\.shopify\.com|Shopify\.theme/i },
    { name: 'Webflow', re: /webflow/i },
    { name: 'Drupal', re: /Drupal|sites\/default\/files/i },
    { name: 'Joomla', re: /Joomla/i },
    { name: 'GoDaddy Website Builder', re: /img1\.wsimg\.com|godaddy/i },
    { name: 'Duda', re: /dudaone|multiscreensite/i },
  ],
  ecommerce: [
    { name: 'Shopify', re: /cdn\.shopify\.com|Shopify\.theme/i },
    { name: 'WooCommerce', re: /woocommerce/i },
    { name: 'BigCommerce', re: /bigcommerce/i },
    { name: 'Square Online', re: /square\.site|squareup\.com\/online/i },
    { name: 'Ecwid', re: /ecwid/i },
  ],
  booking: [
    { name: 'Calendly', re: /calendly\.com/i },
    { name: 'Zocdoc', re: /zocdoc\.com/i },
    { name: 'Square Appointments', re: /squareup\.com\/appointments/i },
    { name: 'Acuity Scheduling', re: /acuityscheduling\.com/i },
    { name: 'OpenTable', re: /opentable\.com/i },
    { name: 'Resy', re: /resy\.com/i },
    { name: 'Mindbody', re: /mindbodyonline\.com/i },
    { name: 'Booksy', re: /booksy\.com/i },
    { name: 'Vagaro', re: /vagaro\.com/i },
  ],
  chat: [
    { name: 'Intercom', re: /intercom\.io|intercomcdn/i },
    { name: 'Tidio', re: /tidio\.co/i },
    { name: 'Drift', re: /driftt?\.com/i },
    { name: 'LiveChat', re: /livechatinc\.com/i },
    { name: 'Zendesk Chat', re: /zopim|zdassets\.com/i },
    { name: 'tawk.to', re: /tawk\.to/i },
    { name: 'HubSpot Chat', re: /js\.hs-scripts\.com|usemessages\.com/i },
  ],
  analytics: [
    { name: 'Google Analytics', re: /googletagmanager\.com\/gtag\/js|google-analytics\.com|gtag\("config",\s*"G-/i },
    { name: 'Plausible', re: /plausible\.io/i },
    { name: 'Matomo', re: /matomo|piwik/i },
    { name: 'Hotjar', re: /hotjar/i },
    { name: 'Microsoft Clarity', re: /clarity\.ms/i },
  ],
} as const;

const SOCIAL = {
  facebook: /(^|\.)facebook\.com$/i,
  instagram: /(^|\.)instagram\.com$/i,
  linkedin: /(^|\.)linkedin\.com$/i,
  x: /(^|\.)(x|twitter)\.com$/i,
  youtube: /(^|\.)youtube\.com$/i,
  tiktok: /(^|\.)tiktok\.com$/i,
} as const;

const PHONE_RE = /(?:\+?1[\s.-]?)?\(?\b(\d{3})\)?[\s.-]?(\d{3})[\s.-]?(\d{4})\b/g;


/** Where robots.txt and the sitemap live: the origin, or for the product's sample sites the site's own folder. */
export function siteRoot(url: URL): URL {
  const at = url.pathname.indexOf(SAMPLE_SITES_PATH);
  if (at === 0) {
    const id = url.pathname.slice(SAMPLE_SITES_PATH.length).split('/')[0];
    return new URL(`${SAMPLE_SITES_PATH}${id}/`, url.origin);
  }
  return new URL('/', url.origin);
}

function firstMatch(rules: ReadonlyArray<{ name: string; re: RegExp }>, text: string): string | null {
  return rules.find((r) => r.re.test(text))?.name ?? null;
}

async function tryFetch(url: string, options: SafeFetchOptions): Promise<SafeResponse | null> {
  try {
    return await safeFetch(url, options);
  } catch {
    return null;
  }
}

export function unreachable(url: string, error: string): WebsiteAnalysis {
  return {
    url, reachable: false, error, finalUrl: null, https: /^https:/i.test(url), status: null, responseMs: null, pageWeightKb: null, redirects: 0,
    title: null, metaDescription: null, h1: [], h2Count: 0, viewport: false, lang: false, canonical: false, charset: false,
    schemaTypes: [], schemaLocalBusiness: false, schemaAddress: false, schemaOpeningHours: false, schemaPhone: null,
    ogTitle: false, ogDescription: false, ogImage: false, twitterCard: false, favicon: false, robotsTxt: false, sitemap: false, sitemapInRobots: false,
    wordCount: 0, internalLinks: 0, externalLinks: 0, images: 0, imagesWithAlt: 0, scripts: 0, stylesheets: 0, copyrightYear: null, mixedContent: 0,
    hsts: false, compressed: false, cacheControl: false,
    tech: { cms: null, ecommerce: null, booking: null, chat: null, analytics: [], tagManager: false },
    ads: { googleAds: false, metaPixel: false, tiktokPixel: false, linkedinInsight: false, bingAds: false },
    socials: { facebook: false, instagram: false, linkedin: false, x: false, youtube: false, tiktok: false },
    contactForm: false, telLinks: [], mailtoLinks: 0, newsletter: false, callToAction: false, testimonials: false, openingHours: false, mapEmbed: false,
    pageText: '', phonesOnPage: [],
    schemaGeo: false, schemaSameAs: 0, schemaPriceRange: false, csp: false, xContentTypeOptions: false, frameProtection: false, referrerPolicy: false, permissionsPolicy: false,
    doctype: false, noindex: false, renderBlockingScripts: 0, lazyImages: 0, modernImages: 0, preconnectHints: 0, themeColor: false, appleTouchIcon: false, deprecatedTags: 0,
    landmarks: false, skipLink: false, contactPage: false, aboutPage: false, privacyPage: false, smsLink: false, whatsappLink: false, directionsLink: false, reviewLink: false,
    emailOnPage: false, videoEmbed: false, inlineScriptKb: 0,
  };
}

const LOCAL_BUSINESS_TYPES = /LocalBusiness|Dentist|Restaurant|Plumber|AutoRepair|HairSalon|BeautySalon|LegalService|Attorney|HealthClub|ExerciseGym|VeterinaryCare|RealEstateAgent|HVACBusiness|HomeAndConstructionBusiness|MedicalBusiness|Store|FoodEstablishment|ProfessionalService/;

/** Parse a fetched homepage (exported for fixture tests). */
export function extractFromHtml(html: string, pageUrl: URL, headers: Record<string, string> = {}): Omit<WebsiteAnalysis, 'url' | 'reachable' | 'error' | 'finalUrl' | 'status' | 'responseMs' | 'pageWeightKb' | 'redirects' | 'robotsTxt' | 'sitemap' | 'sitemapInRobots'> {
  const $ = cheerio.load(html);
  const text = $('body').text().replace(/\s+/g, ' ').trim();
  const all = html;

  const schemaTypes: string[] = [];
  let schemaAddress = false;
  let schemaOpeningHours = false;
  let schemaPhone: string | null = null;
  let schemaGeo = false;
  let schemaSameAs = 0;
  let schemaPriceRange = false;
  $('script[type="application/ld+json"]').each((_, el) => {
    try {
      const parsed = JSON.parse($(el).text()) as unknown;
      const nodes: unknown[] = Array.isArray(parsed) ? parsed : (parsed as { '@graph'?: unknown[] })?.['@graph'] ?? [parsed];
      for (const node of nodes) {
        const o = node as Record<string, unknown>;
        const t = o?.['@type'];
        for (const type of Array.isArray(t) ? t : [t]) if (typeof type === 'string') schemaTypes.push(type);
        if (o?.address) schemaAddress = true;
        if (o?.openingHours || o?.openingHoursSpecification) schemaOpeningHours = true;
        if (typeof o?.telephone === 'string') schemaPhone = o.telephone;
        if (o?.geo) schemaGeo = true;
        if (o?.sameAs) schemaSameAs = Math.max(schemaSameAs, Array.isArray(o.sameAs) ? o.sameAs.length : 1);
        if (o?.priceRange) schemaPriceRange = true;
      }
    } catch {
      // A broken JSON-LD block counts as no structured data.
    }
  });
  $('[itemtype]').each((_, el) => {
    const t = $(el).attr('itemtype')?.split('/').pop();
    if (t) schemaTypes.push(t);
  });

  let internal = 0;
  let external = 0;
  const socials = { facebook: false, instagram: false, linkedin: false, x: false, youtube: false, tiktok: false };
  const telLinks: string[] = [];
  let mailto = 0;
  const paths = { contact: false, about: false, privacy: false, sms: false, whatsapp: false, directions: false, review: false };
  $('a[href]').each((_, el) => {
    const href = $(el).attr('href')!.trim();
    const label = $(el).text().toLowerCase();
    if (/^sms:/i.test(href)) paths.sms = true;
    if (/wa\.me\/|api\.whatsapp\.com/i.test(href)) paths.whatsapp = true;
    if (/google\.[a-z.]+\/maps|maps\.google\.|maps\.apple\.com|goo\.gl\/maps/i.test(href) || /\bdirections\b/.test(label)) paths.directions = true;
    if (/search\.google\.com\/local\/writereview|g\.page\/r\/|yelp\.com\/writeareview|yelp\.com\/biz\//i.test(href) || /\b(leave|write) (us )?a review\b/.test(label)) paths.review = true;
    if (/\/contact/i.test(href) || /^contact( us)?$/.test(label.trim())) paths.contact = true;
    if (/\/about/i.test(href) || /^about( us)?$/.test(label.trim())) paths.about = true;
    if (/privacy/i.test(href) || /privacy/.test(label)) paths.privacy = true;
    if (/^tel:/i.test(href)) return void telLinks.push(href.slice(4));
    if (/^mailto:/i.test(href)) return void mailto++;
    let target: URL;
    try {
      target = new URL(href, pageUrl);
    } catch {
      return;
    }
    if (!/^https?:$/.test(target.protocol)) return;
    if (target.host === pageUrl.host) internal++;
    else external++;
    for (const [k, re] of Object.entries(SOCIAL)) if (re.test(target.hostname)) socials[k as keyof typeof socials] = true;
  });

  const images = $('img');
  const withAlt = images.filter((_, el) => ($(el).attr('alt') ?? '').trim().length > 0).length;
  const years = [...text.matchAll(/(?:©|&copy;|\(c\)|copyright)\s*(?:\d{4}\s*[-–]\s*)?(\d{4})/gi)].map((m) => Number(m[1]));
  const isHttps = pageUrl.protocol === 'https:';
  const mixed = isHttps ? $('img[src^="http:"], script[src^="http:"], link[href^="http:"][rel="stylesheet"], iframe[src^="http:"]').length : 0;
  const forms = $('form');
  const contactForm = forms.filter((_, f) => $(f).find('textarea').length > 0 || ($(f).find('input[type="email"], input[name*="email" i]').length > 0 && $(f).find('input, textarea').length >= 3)).length > 0;
  const newsletter = forms.filter((_, f) => /subscribe|newsletter/i.test($(f).text() + ($(f).attr('class') ?? '') + $(f).find('input').map((__, i) => $(i).attr('name') ?? '').get().join(' '))).length > 0;
  const cta = /\b(book (an appointment|now|online)|schedule (now|an appointment|online)|call (now|us today)|get a (free )?(quote|estimate)|order online|reserve( a table)?)\b/i.test(text);

  const header = (name: string) => headers[name] ?? '';
  const robotsMeta = `${$('meta[name="robots" i]').attr('content') ?? ''} ${header('x-robots-tag')}`;
  const inlineScripts = $('script:not([src])').map((_, el) => $(el).text()).get().join('');
  return {
    schemaGeo,
    schemaSameAs,
    schemaPriceRange,
    csp: Boolean(header('content-security-policy')) || $('meta[http-equiv="Content-Security-Policy" i]').length > 0,
    xContentTypeOptions: /nosniff/i.test(header('x-content-type-options')),
    frameProtection: Boolean(header('x-frame-options')) || /frame-ancestors/i.test(header('content-security-policy')),
    referrerPolicy: Boolean(header('referrer-policy')) || $('meta[name="referrer" i]').length > 0,
    permissionsPolicy: Boolean(header('permissions-policy')),
    doctype: /^\s*<!doctype html/i.test(html),
    noindex: /noindex/i.test(robotsMeta),
    renderBlockingScripts: $('head script[src]').filter((_, el) => $(el).attr('async') === undefined && $(el).attr('defer') === undefined && $(el).attr('type') !== 'module').length,
    lazyImages: $('img[loading="lazy" i]').length,
    modernImages: $('img[src$=".webp" i], img[src$=".avif" i], source[type="image/webp" i], source[type="image/avif" i]').length,
    preconnectHints: $('link[rel~="preconnect" i], link[rel~="preload" i], link[rel~="dns-prefetch" i]').length,
    themeColor: $('meta[name="theme-color" i]').length > 0,
    appleTouchIcon: $('link[rel="apple-touch-icon" i]').length > 0,
    deprecatedTags: $('font, center, marquee, blink, frameset').length,
    landmarks: $('main, [role="main"]').length > 0 && $('nav, [role="navigation"]').length > 0,
    skipLink: $('a[href^="#"]').filter((_, el) => /skip/i.test($(el).text())).length > 0,
    contactPage: paths.contact,
    aboutPage: paths.about,
    privacyPage: paths.privacy,
    smsLink: paths.sms,
    whatsappLink: paths.whatsapp,
    directionsLink: paths.directions,
    reviewLink: paths.review,
    emailOnPage: /[\w.+-]+@[\w-]+\.[\w.]+/.test(text),
    videoEmbed: $('video, iframe[src*="youtube.com"], iframe[src*="youtube-nocookie.com"], iframe[src*="vimeo.com"]').length > 0,
    inlineScriptKb: Math.round((inlineScripts.length / 1024) * 10) / 10,
    https: isHttps,
    title: $('title').first().text().trim() || null,
    metaDescription: $('meta[name="description" i]').attr('content')?.trim() || null,
    h1: $('h1').map((_, el) => $(el).text().trim()).get(),
    h2Count: $('h2').length,
    viewport: $('meta[name="viewport" i]').length > 0,
    lang: Boolean($('html').attr('lang')),
    canonical: $('link[rel="canonical" i]').length > 0,
    charset: $('meta[charset]').length > 0 || /charset=/i.test(headers['content-type'] ?? ''),
    schemaTypes: [...new Set(schemaTypes)],
    schemaLocalBusiness: schemaTypes.some((t) => LOCAL_BUSINESS_TYPES.test(t)),
    schemaAddress,
    schemaOpeningHours,
    schemaPhone,
    ogTitle: $('meta[property="og:title"]').length > 0,
    ogDescription: $('meta[property="og:description"]').length > 0,
    ogImage: $('meta[property="og:image"]').length > 0,
    twitterCard: $('meta[name="twitter:card"]').length > 0,
    favicon: $('link[rel~="icon" i], link[rel="shortcut icon" i], link[rel="apple-touch-icon" i]').length > 0,
    wordCount: text ? text.split(' ').length : 0,
    internalLinks: internal,
    externalLinks: external,
    images: images.length,
    imagesWithAlt: withAlt,
    scripts: $('script').length,
    stylesheets: $('link[rel="stylesheet" i]').length,
    copyrightYear: years.length ? Math.max(...years) : null,
    mixedContent: mixed,
    hsts: Boolean(headers['strict-transport-security']),
    compressed: Boolean(headers['content-encoding'] && headers['content-encoding'] !== 'identity'),
    cacheControl: Boolean(headers['cache-control']),
    tech: {
      cms: firstMatch(RULES.cms, all),
      ecommerce: firstMatch(RULES.ecommerce, all),
      booking: firstMatch(RULES.booking, all),
      chat: firstMatch(RULES.chat, all),
      analytics: RULES.analytics.filter((r) => r.re.test(all)).map((r) => r.name),
      tagManager: /GTM-[A-Z0-9]+/.test(all),
    },
    ads: {
      googleAds: /AW-\d{6,}|googleadservices\.com|googleads\.g\.doubleclick/i.test(all),
      metaPixel: /fbq\(|connect\.facebook\.net\/[^"']*fbevents/i.test(all),
      tiktokPixel: /analytics\.tiktok\.com|ttq\.load/i.test(all),
      linkedinInsight: /snap\.licdn\.com|_linkedin_partner_id/i.test(all),
      bingAds: /bat\.bing\.com/i.test(all),
    },
    socials,
    contactForm,
    telLinks,
    mailtoLinks: mailto,
    newsletter,
    callToAction: cta || $('a.button, a.btn, button').filter((_, el) => /book|schedule|call|quote|reserve|order/i.test($(el).text())).length > 0,
    testimonials: /testimonial|what our (clients|customers|patients) say|reviews from/i.test(text) || $('blockquote').length > 0,
    openingHours: /\b(mon(day)?|tue(sday)?|sat(urday)?)\b[^.]{0,40}\d{1,2}(:\d{2})?\s*(am|pm)/i.test(text) || /\bhours\b/i.test(text) || schemaOpeningHours,
    mapEmbed: $('iframe[src*="google.com/maps"], iframe[src*="maps.google"], iframe[src*="openstreetmap"]').length > 0,
    pageText: text.slice(0, 20_000),
    phonesOnPage: [...new Set([...text.matchAll(PHONE_RE)].map((m) => `${m[1]}${m[2]}${m[3]}`).concat(telLinks.map(digitsOnly)))],
  };
}

/** Fetch and read one website. Never throws: an unreachable site comes back with reachable=false. */
export async function analyseWebsite(url: string, fetchOptions: SafeFetchOptions): Promise<WebsiteAnalysis> {
  let home: SafeResponse;
  try {
    home = await safeFetch(url, fetchOptions);
  } catch (error) {
    return unreachable(url, error instanceof SafeFetchError ? `${error.reason}: ${error.message}` : String(error));
  }
  if (home.status >= 400) return { ...unreachable(url, `HTTP ${home.status}`), status: home.status, responseMs: Math.round(home.elapsedMs) };
  const finalUrl = new URL(home.url);
  const root = siteRoot(finalUrl);
  // robots.txt, the favicon and the sitemap share what is left of a budget of twice the page limit.
  const limit = fetchOptions.timeoutMs ?? 8000;
  const deadline = performance.now() + 2 * limit - home.elapsedMs;
  const small = (): SafeFetchOptions => ({ ...fetchOptions, maxBytes: 512 * 1024, timeoutMs: Math.max(1, Math.min(limit, deadline - performance.now())) });
  const extracted = extractFromHtml(home.text(), finalUrl, home.headers);
  const [robots, faviconRes] = await Promise.all([
    tryFetch(new URL('robots.txt', root).href, small()),
    extracted.favicon ? Promise.resolve(null) : tryFetch(new URL('favicon.ico', root).href, small()),
  ]);
  const robotsText = robots && robots.status === 200 && !/<html/i.test(robots.text()) ? robots.text() : null;
  const sitemapLine = robotsText?.match(/^\s*sitemap:\s*(\S+)/im)?.[1];
  const sitemapUrl = sitemapLine ? new URL(sitemapLine, root).href : new URL('sitemap.xml', root).href;
  const sitemapRes = deadline - performance.now() > 50 ? await tryFetch(sitemapUrl, small()) : null;
  const sitemapOk = Boolean(sitemapRes && sitemapRes.status === 200 && /<(urlset|sitemapindex)\b/i.test(sitemapRes.text()));
  return {
    url,
    reachable: true,
    error: null,
    finalUrl: finalUrl.href,
    status: home.status,
    responseMs: Math.round(home.elapsedMs),
    pageWeightKb: Math.round((home.body.length / 1024) * 10) / 10,
    redirects: home.redirects.length,
    robotsTxt: robotsText !== null,
    sitemap: sitemapOk,
    sitemapInRobots: Boolean(sitemapLine),
    ...extracted,
    favicon: extracted.favicon || Boolean(faviconRes && faviconRes.status === 200 && faviconRes.body.length > 0),
  };
}
