// Stage 5: what a website shows, read through the one safe fetcher and parsed with cheerio.
// The homepage, robots.txt, the sitemap and the favicon are fetched; everything else is read from
// the homepage's HTML and headers. Tech stack, analytics and ad pixels are recognised by the rule
// table below (signatures in URLs, generator tags and inline scripts).
import * as cheerio from 'cheerio';
import { digitsOnly } from '../../../common/constants.ts';
import { safeFetch, SafeFetchError, type CertificateProblem, type SafeFetchOptions, type SafeResponse } from '../../lib/safe-fetch.ts';
import { SAMPLE_SITES_PATH } from './sample-sites.ts';
import { clientRedirect, parkedPage, passwordWall, placeholderPage } from './site-shapes.ts';
import { platformOf, platformPhrase, type Platform } from './site-kind.ts';
import type { SiteReadState } from '../model/types.ts';

/** How a visitor's homepage was met (decision 0217): read in full; down (no connection, no DNS
 *  answer, no answer in time, an error status, a 5xx on every try); refusing automated visitors
 *  (403/429 or a bot-protection challenge page: the server is up, the page was not shown to us);
 *  too large (the first SITE_FETCH_MAX_BYTES read); slow (answered, the whole page took SLOW_MS
 *  or more, or was still arriving at the time limit); its content drawn by JavaScript (the HTML
 *  is a shell this check does not run). */
export type { SiteReadState };

/** A homepage taking this long or more to arrive is slow: where the response-time point reaches its worst. */
export const SLOW_MS = 3000;

export interface WebsiteAnalysis {
  url: string;
  /** The server answered (not down): a page, or a refusal of automated visitors. */
  reachable: boolean;
  error: string | null;
  /** The headline of how the homepage was met. */
  state: SiteReadState;
  /** Why, in words: "HTTP 403", "a Cloudflare challenge page (HTTP 503)", "no DNS answer for the domain"... */
  detail: string | null;
  /** The platform the address is a page of (a social profile, a link-in-bio page, a marketplace),
   *  decided from the address (or where it forwards), never fetched; null for an own website. */
  platform: Platform | null;
  /** A browser's certificate warning on the way to the homepage, or null (decision 0230). */
  certificate: CertificateProblem | null;
  /** The page forwarded the visitor by a meta refresh or a script, followed like a browser. */
  clientRedirect: { by: 'meta refresh' | 'script'; to: string } | null;
  /** The bot protection recognised on a refusal ('Cloudflare', 'Sucuri', 'DataDome', 'Akamai'...), or null. */
  refusedBy: string | null;
  /** Conditions besides the headline: slow, cut at the size or the time limit, drawn by JavaScript. */
  slow: boolean;
  truncated: 'size' | 'time' | null;
  scriptRendered: boolean;
  /** Fields of this record whose absence could not be seen (a page not read, not all read or not
   *  rendered; a file that refused us): a value found in them holds, an empty one is unknown. */
  unseen: string[];
  /** Numeric fields that are lower bounds (a page still arriving, a size not all counted). */
  atLeast: string[];
  /** Why the unseen fields could not be seen, one sentence. */
  unseenWhy: string | null;
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

export function unreachable(url: string, error: string, detail: string | null = null): WebsiteAnalysis {
  return {
    url, reachable: false, error, state: 'down', detail: detail ?? error, platform: null, certificate: null, clientRedirect: null, refusedBy: null, slow: false, truncated: null, scriptRendered: false, unseen: [], atLeast: [], unseenWhy: null, finalUrl: null, https: /^https:/i.test(url), status: null, responseMs: null, pageWeightKb: null, redirects: 0,
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
type NotFromHtml = 'url' | 'reachable' | 'error' | 'state' | 'detail' | 'platform' | 'certificate' | 'clientRedirect' | 'refusedBy' | 'slow' | 'truncated' | 'scriptRendered' | 'unseen' | 'atLeast' | 'unseenWhy' | 'finalUrl' | 'status' | 'responseMs' | 'pageWeightKb' | 'redirects' | 'robotsTxt' | 'sitemap' | 'sitemapInRobots';
export function extractFromHtml(html: string, pageUrl: URL, headers: Record<string, string> = {}): Omit<WebsiteAnalysis, NotFromHtml> {
  const $ = cheerio.load(html);
  // What a visitor reads: the body's text without scripts, styles and the no-script fallback.
  const body = $('body').clone();
  body.find('script, style, noscript, template').remove();
  const text = body.text().replace(/\s+/g, ' ').trim();
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

/** Bot protection, recognised by its headers and its challenge or block page. A page matching
 *  `page` is a refusal whatever its status (some challenges answer 200 or 202); `header` and
 *  `server` are trusted only on an error status, since they are on the protected site's every
 *  answer. */
const PROTECTION: Array<{ name: string; page?: RegExp; header?: string; server?: RegExp }> = [
  { name: 'Cloudflare', page: /<title>\s*(Just a moment\.\.\.|Attention Required! \| Cloudflare)|cf-browser-verification|window\._cf_chl_opt|Checking (if the site connection is secure|your browser before accessing)/i, header: 'cf-mitigated', server: /^cloudflare/i },
  { name: 'Sucuri', page: /Sucuri WebSite Firewall|Access Denied - Sucuri|sucuri_cloudproxy_js/i, header: 'x-sucuri-block', server: /Sucuri/i },
  { name: 'DataDome', page: /(geo|ct)\.captcha-delivery\.com/i, header: 'x-datadome' },
  { name: 'Akamai', page: /Reference\s*(&#32;)?(#|&#35;)\s*\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+|errors\.edgesuite\.net/i, server: /AkamaiGHost/i },
  { name: 'Imperva', page: /Incapsula incident ID|_Incapsula_Resource/i, header: 'x-iinfo' },
  { name: 'HUMAN (PerimeterX)', page: /px-captcha|_pxCaptcha/i },
  { name: 'AWS WAF', page: /AwsWafIntegration|awswaf\.com/i, header: 'x-amzn-waf-action' },
  { name: 'SiteGround', page: /sgcaptcha/i },
  { name: 'Wordfence', page: /Generated by Wordfence|Your access to this site has been limited by the site owner/i },
];

/** The bot protection a response shows, or null. A challenge page is short: a long page that
 *  merely loads a protection script is the site itself. */
export function protectionOf(status: number, headers: Record<string, string>, html: string): string | null {
  const shortPage = html.length < 64 * 1024;
  for (const p of PROTECTION) {
    if (p.page && shortPage && p.page.test(html)) return p.name;
    if (status >= 400 && ((p.header && headers[p.header] !== undefined) || (p.server && p.server.test(headers.server ?? '')))) return p.name;
  }
  return null;
}

/** A page whose content a script draws: next to no text a visitor would read, a script, and a
 *  mount point (an empty #root, #app, #__next...) or a no-script message asking for JavaScript. */
export function drawnByScript(html: string): boolean {
  const $ = cheerio.load(html);
  if ($('script').length === 0) return false;
  const body = $('body').clone();
  body.find('script, style, noscript, template').remove();
  const words = body.text().replace(/\s+/g, ' ').trim().split(' ').filter(Boolean).length;
  if (words >= 25) return false;
  const mount = $('#root, #app, #__next, #__nuxt, #___gatsby, #svelte, app-root, [data-reactroot], [ng-app], [ng-version]').filter((_, el) => $(el).text().trim() === '').length > 0;
  const asks = /javascript/i.test($('noscript').text());
  return mount || asks || words === 0;
}

/** Fields read from the page's HTML, and those of them read from its <head> (the head is seen
 *  once the part read reaches the body). */
const DOCUMENT_FIELDS = Object.keys(extractFromHtml('<html><head></head><body></body></html>', new URL('http://x.invalid/'))).filter((k) => !['https', 'hsts', 'compressed', 'cacheControl', 'xContentTypeOptions', 'permissionsPolicy'].includes(k));
const HEAD_FIELDS = new Set(['title', 'metaDescription', 'viewport', 'lang', 'canonical', 'charset', 'ogTitle', 'ogDescription', 'ogImage', 'twitterCard', 'themeColor', 'appleTouchIcon', 'preconnectHints', 'renderBlockingScripts', 'noindex', 'csp', 'referrerPolicy', 'frameProtection', 'favicon']);

/** A refused or failed request for robots.txt, the sitemap or the favicon says nothing about
 *  whether the file exists. */
const refusedOrFailed = (r: SafeResponse | null) => r === null || r.status === 401 || r.status === 403 || r.status === 429 || r.status >= 500;

const DOWN_WORDS: Record<string, string> = {
  dns: 'no DNS answer for its domain',
  network: 'the connection was refused or dropped',
  timeout: 'no answer within the time limit',
  redirects: 'more than 5 redirects (a redirect loop)',
  address: 'its address is not a public web address',
  port: 'it is on a port a web browser does not use',
  scheme: 'its address is not a web address',
  credentials: 'its address carries a user name',
  too_large: 'its page was too large',
};

/** What a browser warns about, in words: "an expired certificate (expired 2021-01-01)". */
export function certificateWords(c: CertificateProblem): string {
  if (c.problem === 'expired') return `an expired certificate${c.expiredAt ? ` (expired ${c.expiredAt.slice(0, 10)})` : ''}`;
  if (c.problem === 'name') return `a certificate made for another name${c.names ? ` (${c.names})` : ''}`;
  if (c.problem === 'self_signed') return 'a self-signed certificate, which browsers do not trust';
  return `a certificate browsers do not trust (${c.code})`;
}

/** How many times a homepage answering 5xx is asked before it counts as down. */
export const SERVER_ERROR_TRIES = 3;

/** An address that is a page of someone else's platform: named, never fetched, nothing of the
 *  platform's page (its HTTPS, its markup) credited to the business (decision 0230). */
function onPlatform(url: string, platform: Platform, forwardedTo: string | null): WebsiteAnalysis {
  return { ...unreachable(url, ''), reachable: true, error: null, state: platform.kind, detail: forwardedTo ? `its address forwards to ${platformPhrase(platform)}, ${forwardedTo}` : platformPhrase(platform), platform, https: false, finalUrl: forwardedTo };
}

/** Visible words of a page, for the short-page shapes; a long HTML is a site whatever it says. */
function visibleWords(html: string): { text: string; words: number } {
  if (html.length > 256 * 1024) return { text: '', words: Number.POSITIVE_INFINITY };
  const $ = cheerio.load(html);
  const body = $('body').clone();
  body.find('script, style, noscript, template').remove();
  const text = body.text().replace(/\s+/g, ' ').trim();
  return { text, words: text ? text.split(' ').length : 0 };
}

/** Fetch and read one website, as a visitor meets it. Never throws: a site that is down comes
 *  back with state 'down' (reachable=false). A page that forwards the visitor by a meta refresh
 *  or a script is followed, within the redirect limit (`hops` taken so far). */
export async function analyseWebsite(url: string, fetchOptions: SafeFetchOptions, hops = 0): Promise<WebsiteAnalysis> {
  const platform = platformOf(url);
  if (platform) return onPlatform(url, platform, null);
  const limit = fetchOptions.timeoutMs ?? 8000;
  const maxRedirects = fetchOptions.maxRedirects ?? 5;
  const started = performance.now();
  let home: SafeResponse | null = null;
  let tries = 0;
  while (tries < SERVER_ERROR_TRIES) {
    tries++;
    try {
      home = await safeFetch(url, { ...fetchOptions, maxRedirects: maxRedirects - hops, partial: true, certificates: 'report' });
    } catch (error) {
      if (!(error instanceof SafeFetchError)) return unreachable(url, String(error));
      const seconds = error.reason === 'timeout' ? ` (${(limit / 1000).toFixed(limit % 1000 ? 1 : 0)} s)` : '';
      return unreachable(url, `${error.reason}: ${error.message}`, `${DOWN_WORDS[error.reason] ?? error.message}${seconds}`);
    }
    // A server error may pass: asked again, briefly, while the budget lasts.
    if (home.status < 500 || protectionOf(home.status, home.headers, home.text()) !== null) break;
    if (tries < SERVER_ERROR_TRIES && performance.now() - started + 500 * tries < limit) await new Promise((r) => setTimeout(r, 250 * tries));
    else break;
  }
  const res = home!;
  const elapsed = Math.round(res.elapsedMs);
  // An own domain forwarding to a social page is that page.
  const forwardedTo = platformOf(res.url);
  if (forwardedTo) return { ...onPlatform(url, forwardedTo, res.url), redirects: res.redirects.length };
  const html = res.text();
  const { text: visible, words } = visibleWords(html);
  const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
  // The server answered, with something that is not a website yet.
  const answered = (state: SiteReadState, detail: string): WebsiteAnalysis => ({
    ...unreachable(url, ''), reachable: true, error: null, state, detail, certificate: res.certificate, finalUrl: res.url, status: res.status,
    https: new URL(res.url).protocol === 'https:', responseMs: elapsed, pageWeightKb: kb(res.size), redirects: res.redirects.length,
  });
  const wall = passwordWall(res.status, res.headers, html, words);
  if (wall) return answered('password', wall);
  const protection = protectionOf(res.status, res.headers, html);
  const refused = protection !== null || res.status === 403 || res.status === 429;
  if (!refused && res.status >= 400) {
    // The server answered with an error page: a visitor finds no site, but it is not silent.
    const detail = res.status >= 500 ? `HTTP ${res.status} on ${tries} ${tries === 1 ? 'try' : 'tries'}` : `HTTP ${res.status}: the homepage answers with an error page`;
    return { ...unreachable(url, `HTTP ${res.status}`, detail), state: 'error_page', certificate: res.certificate, status: res.status, responseMs: elapsed };
  }
  if (!refused && !res.truncated) {
    if (parkedPage(html, visible, words)) return answered('parked', `a parked or for-sale domain page${res.redirects.length ? ` at ${res.url}` : ''}`);
    const onward = clientRedirect(html, new URL(res.url), words);
    if (onward) {
      const taken = hops + res.redirects.length + 1;
      if (taken > maxRedirects) return unreachable(url, 'redirects: too many', DOWN_WORDS.redirects);
      const next = await analyseWebsite(onward.to, fetchOptions, taken);
      const detail = next.platform ? `its page forwards by ${onward.by === 'script' ? 'a script' : 'a meta refresh'} to ${platformPhrase(next.platform)}, ${onward.to}` : next.detail;
      return { ...next, url, detail, clientRedirect: next.clientRedirect ?? onward, certificate: res.certificate ?? next.certificate, redirects: next.redirects + res.redirects.length + 1 };
    }
    const placeholder = placeholderPage(html, visible, words);
    if (placeholder) return answered('placeholder', placeholder);
  }
  const finalUrl = new URL(res.url);
  const root = siteRoot(finalUrl);
  // robots.txt, the favicon and the sitemap share what is left of a budget of twice the page limit.
  const deadline = started + 2 * limit;
  const small = (): SafeFetchOptions => ({ ...fetchOptions, certificates: 'report', maxBytes: 512 * 1024, timeoutMs: Math.max(1, Math.min(limit, deadline - performance.now())) });
  const extracted = refused ? { ...unreachable(url, ''), https: finalUrl.protocol === 'https:', hsts: Boolean(res.headers['strict-transport-security']) } : extractFromHtml(html, finalUrl, res.headers);
  const [robots, faviconRes] = await Promise.all([
    tryFetch(new URL('robots.txt', root).href, small()),
    extracted.favicon ? Promise.resolve(null) : tryFetch(new URL('favicon.ico', root).href, small()),
  ]);
  const robotsText = robots && robots.status === 200 && !/<html/i.test(robots.text()) ? robots.text() : null;
  const sitemapLine = robotsText?.match(/^\s*sitemap:\s*(\S+)/im)?.[1];
  const sitemapUrl = sitemapLine ? new URL(sitemapLine, root).href : new URL('sitemap.xml', root).href;
  const sitemapRes = deadline - performance.now() > 50 ? await tryFetch(sitemapUrl, small()) : null;
  const sitemapOk = Boolean(sitemapRes && sitemapRes.status === 200 && /<(urlset|sitemapindex)\b/i.test(sitemapRes.text()));
  const favicon = extracted.favicon || Boolean(faviconRes && faviconRes.status === 200 && faviconRes.body.length > 0);

  // What could not be seen, and why.
  const unseen = new Set<string>();
  const atLeast: string[] = [];
  let unseenWhy: string | null = null;
  // A page cut short has not shown its body yet: that is not a page a script draws.
  const scriptRendered = !refused && !res.truncated && drawnByScript(html);
  const slow = !refused && (res.truncated === 'time' || elapsed >= SLOW_MS);
  if (refused) {
    // The refusal's own headers are the firewall's, not the page's (HSTS holds for the whole host).
    for (const k of [...DOCUMENT_FIELDS, 'responseMs', 'pageWeightKb', 'compressed', 'cacheControl', 'xContentTypeOptions', 'permissionsPolicy']) unseen.add(k);
    unseenWhy = 'The site refuses automated visitors, so its homepage could not be read.';
  } else if (scriptRendered) {
    for (const k of DOCUMENT_FIELDS) unseen.add(k);
    unseenWhy = 'The homepage\'s content is drawn by JavaScript, which this check does not run: what its HTML does not show could not be seen.';
  } else if (res.truncated) {
    // The head is whole once the part read reaches the body.
    const headWhole = /<body[\s>]|<\/head>/i.test(html);
    for (const k of DOCUMENT_FIELDS) if (!headWhole || !HEAD_FIELDS.has(k)) unseen.add(k);
    unseenWhy = res.truncated === 'size'
      ? `Only the first ${kb(res.body.length).toFixed(0)} KB of the homepage were read (its limit), so what is not in them could not be seen.`
      : `The homepage was still arriving after ${(limit / 1000).toFixed(limit % 1000 ? 1 : 0)} s; what had not arrived could not be seen.`;
  }
  if (res.truncated === 'time') atLeast.push('responseMs');
  if (!res.sizeExact) atLeast.push('pageWeightKb');
  if (refusedOrFailed(robots)) for (const k of ['robotsTxt', 'sitemapInRobots']) unseen.add(k);
  if (refusedOrFailed(sitemapRes) && !sitemapOk) unseen.add('sitemap');
  if (!favicon && refusedOrFailed(faviconRes)) unseen.add('favicon');

  // A browser's certificate warning is what a visitor meets first.
  const state: SiteReadState = res.certificate ? 'cert_error' : refused ? 'refused' : res.truncated === 'size' ? 'too_large' : slow ? 'slow' : scriptRendered ? 'script_rendered' : 'read';
  const detail = res.certificate
    ? certificateWords(res.certificate)
    : refused
    ? `${protection ? `a ${protection} ${res.status >= 400 ? 'block or challenge page' : 'challenge page'}` : 'a refusal'} (HTTP ${res.status})`
    : res.truncated === 'size'
      ? `${res.sizeExact ? '' : 'more than '}${(res.size / 1024 / 1024).toFixed(1)} MB of HTML; the first ${(res.body.length / 1024 / 1024).toFixed(1)} MB read`
      : slow
        ? res.truncated === 'time' ? `still arriving after ${(elapsed / 1000).toFixed(1)} s` : `${(elapsed / 1000).toFixed(1)} s to the whole page`
        : scriptRendered ? 'the HTML is a shell a script fills in' : null;
  return {
    ...extracted,
    url,
    reachable: true,
    error: null,
    state,
    detail,
    platform: null,
    certificate: res.certificate,
    clientRedirect: null,
    refusedBy: protection,
    slow,
    truncated: res.truncated,
    scriptRendered,
    unseen: [...unseen],
    atLeast,
    unseenWhy,
    finalUrl: finalUrl.href,
    status: res.status,
    responseMs: elapsed,
    pageWeightKb: kb(res.size),
    redirects: res.redirects.length,
    robotsTxt: robotsText !== null,
    sitemap: sitemapOk,
    sitemapInRobots: Boolean(sitemapLine),
    favicon,
  };
}
