// The widget SDK's shared facts (issue 15): where it is served, what a key looks like, which
// hostnames a key admits, and the snippet an agency pastes. The product (routes, the /widget page)
// and the SDK itself read them from here, so the snippet shown is the one the SDK documents.
import { inkOn, MIN_GRAPHIC_CONTRAST, ringOn, textOn } from './colour.ts';

/** The versioned path the widget is served under. A breaking change gets /widget/v2/. */
export const WIDGET_BASE_PATH = '/widget/v1/';
/** The entry a snippet runs. */
export const WIDGET_LOADER_FILE = 'loader.js';
/** The widget itself, at a stable address the snippet can name beside the loader (decision 0205). */
export const WIDGET_FILE = 'widget.js';
export const WIDGET_API_PATH = '/api/widget/v1/';
export const WIDGET_KEY_PREFIX = 'lr_pk_';
export const WIDGET_KEY = /^lr_pk_[A-Za-z0-9_-]{24}$/;

export const WIDGET_COMPONENTS = ['report-form', 'score-card'] as const;
export type WidgetComponent = (typeof WIDGET_COMPONENTS)[number];
export const WIDGET_COMPONENT_LABELS: Record<WidgetComponent, string> = { 'report-form': 'Report form', 'score-card': 'Score card' };

/** How long browsers keep the loader and the widget: a new release reaches pages within five minutes. */
export const WIDGET_MAX_AGE = 300;

export const WIDGET_NOT_ENABLED = 'This form is not enabled for this site.';
/** The visitor's message in a frame sandboxed without allow-same-origin (its requests say Origin: null). */
export const WIDGET_SANDBOXED = 'This form cannot run inside this frame.';

/**
 * What a refused widget call tells the site owner in the browser's console (issue 40), beside the
 * visitor's short message: the Origin the browser sent and what to change. The same words for an
 * unknown, a revoked and a foreign key (a stranger learns nothing about a key from them).
 */
export function widgetRefusalHint(origin: string | null | undefined): string {
  if (origin === 'null') {
    return 'LocalRank widget: this page is in an iframe sandboxed without allow-same-origin, so the browser sends its requests with "Origin: null", which no key can allow. Add allow-same-origin to the iframe\'s sandbox attribute (sandbox="allow-scripts allow-same-origin …"), or put the snippet on a page outside the frame.';
  }
  return `LocalRank widget: this key does not allow ${origin || 'a request without an Origin'}. On LocalRank's Website Widget page, add this site's hostname to the key's allowed hostnames, or use the snippet of a key that is not revoked.`;
}

/**
 * When a widget visitor's report goes out, as the lead's answer says (decision 0171): in the usual
 * minutes; within the hour (the key's hourly limit was reached); later (the agency's plan has
 * lapsed past its payment grace period: the report waits until the agency releases it); or after
 * the agency looked at it (the address could not be located).
 */
export type LeadDelivery = 'minutes' | 'hour' | 'later' | 'review';

/** The widget's thank-you, written by the server so the SDK carries no wording: `card` says
 *  whether a score card is on its way to show. */
export interface LeadThanks {
  title: string;
  text: string;
  card: boolean;
  /** What shows where the score card will appear, until it does (null when none comes). */
  wait: string | null;
}

const CARD_WAIT = 'Your score card appears here as soon as it is ready.';

/** The thank-you in words that match when the report will come. */
export function leadThanks(delivery: LeadDelivery, agency: string, usual: string): LeadThanks {
  if (delivery === 'minutes' || delivery === 'hour') {
    return { title: 'Thank you! Your report is on its way.', text: `We're analysing your business and its top local competitors now. An email with your full report from ${agency} will arrive ${delivery === 'hour' ? 'within the hour' : `in ${usual}`}.`, card: true, wait: CARD_WAIT };
  }
  if (delivery === 'later') return { title: 'Thank you! Your request is saved.', text: `Your report cannot be prepared right now, so it will not arrive in the usual ${usual}. ${agency} has your request and the report will be emailed to you as soon as ${agency} releases it.`, card: false, wait: null };
  return { title: 'Thank you! Your request is saved.', text: `We could not locate the business address automatically. ${agency} has your request and will get back to you by email.`, card: false, wait: null };
}

/**
 * A hostname pattern as the agency types it, normalised: lower case, IDN as punycode (through
 * URL, as browsers send it in Origin), an optional port kept, a pasted address cut to its host.
 * `*.` is allowed only as the first label. The scheme is https unless `http://` is typed, which is
 * kept (a test site). Null when it is not a hostname.
 */
export function normaliseHostPattern(input: string): string | null {
  let text = input.trim().toLowerCase();
  if (!text) return null;
  const http = text.startsWith('http://');
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/[/?#].*$/, '');
  const wildcard = text.startsWith('*.');
  if (wildcard) text = text.slice(2);
  if (!text || text.includes('*') || text.includes('@')) return null;
  let host: string;
  try {
    const url = new URL(`${http ? 'http' : 'https'}://${text}`);
    if (url.username || url.password || url.pathname !== '/') return null;
    host = url.host;
  } catch {
    return null;
  }
  const name = host.replace(/:\d+$/, '');
  // A dotted name or localhost; IP literals are allowed (a test host), bare words are not.
  if (name !== 'localhost' && !name.includes('.') && !name.startsWith('[')) return null;
  if (wildcard && (name.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(name) || !name.includes('.'))) return null;
  return `${http ? 'http://' : ''}${wildcard ? '*.' : ''}${host}`;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const defaultPort = (scheme: string) => (scheme === 'http' ? '80' : '443');

/**
 * Whether an Origin header value is one of the patterns, by scheme, host and port. `example.com`
 * matches exactly https://example.com (port 443); `example.com:8443` https on that port;
 * `http://example.com:8080` only that scheme and port; `*.example.com` any subdomain at any depth,
 * not the apex itself, and never `evil-example.com` (labels, not text). A loopback host
 * (localhost, 127.0.0.1, [::1]) without a scheme admits http too: a developer's machine.
 */
export function originAllowed(origin: string | null | undefined, patterns: readonly string[]): boolean {
  if (!origin || origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  const scheme = url.protocol.slice(0, -1);
  const hostname = url.hostname;
  const port = url.port || defaultPort(scheme);
  return patterns.some((raw) => {
    const normalised = normaliseHostPattern(raw);
    if (!normalised) return false;
    const http = normalised.startsWith('http://');
    const pattern = http ? normalised.slice('http://'.length) : normalised;
    const wildcard = pattern.startsWith('*.');
    const body = wildcard ? pattern.slice(2) : pattern;
    const portMatch = /^(.*):(\d+)$/.exec(body);
    const name = portMatch ? portMatch[1]! : body;
    const schemes = http ? ['http'] : LOOPBACK.has(name) ? ['https', 'http'] : ['https'];
    if (!schemes.includes(scheme)) return false;
    if ((portMatch ? portMatch[2] : defaultPort(scheme)) !== port) return false;
    return wildcard ? hostname.endsWith(`.${name}`) : hostname === name;
  });
}

/** The host part of an Origin (what a lead records as its source). */
export const originHost = (origin: string) => new URL(origin).host;

export interface SnippetInput {
  /** The product's public address, e.g. https://app.localrank.example */
  baseUrl: string;
  publishableKey: string;
  components: readonly WidgetComponent[];
}

/** Where a key's calls go (the widget's, and the snippet's hint for the config). */
export const widgetApiBase = (origin: string, publishableKey: string) => `${origin}${WIDGET_API_PATH}${encodeURIComponent(publishableKey)}`;

/**
 * The script-tag snippet: the loader, two hints that let the browser fetch the widget and the
 * key's config while it fetches the loader (one round trip before the form, not two; decision
 * 0205), and the elements, each naming its key in `data-key` (two agencies' snippets on one page
 * keep their own keys, whichever loader runs first; `data-key`, not `key`, which Vue and React keep
 * for themselves and never put on the element: issue 40). No inline script is needed. The config hint is `crossorigin`, which is
 * how the loader asks for it (a CORS GET with the default credentials); a hint that did not match
 * would be fetched twice.
 */
export function widgetSnippet({ baseUrl, publishableKey, components }: SnippetInput): string {
  const origin = baseUrl.replace(/\/$/, '');
  return [
    `<script async src="${origin}${WIDGET_BASE_PATH}${WIDGET_LOADER_FILE}" data-key="${publishableKey}"></script>`,
    `<link rel="preload" href="${origin}${WIDGET_BASE_PATH}${WIDGET_FILE}" as="script">`,
    `<link rel="preload" href="${widgetApiBase(origin, publishableKey)}/config" as="fetch" crossorigin>`,
    ...components.map((c) => `<localrank-${c} data-key="${publishableKey}"></localrank-${c}>`),
  ].join('\n');
}

/** The elements in a Vue (or Nuxt) app: the snippet's script and link lines go in the page's head,
 *  the elements in a template with their key in `data-key`, and Vue is told they are custom elements. */
export function widgetVueUsage({ publishableKey, components }: SnippetInput): string {
  return [
    `<!-- index.html (Nuxt: app.head in nuxt.config): the snippet's <script> and <link> lines -->`,
    `<!-- A component's template: the key in data-key (Vue keeps "key" for itself) -->`,
    '<template>',
    ...components.map((c) => `  <localrank-${c} data-key="${publishableKey}"></localrank-${c}>`),
    '</template>',
    '',
    `// vite.config.ts (Nuxt: vue.compilerOptions in nuxt.config)`,
    `vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('localrank-') } } })`,
  ].join('\n');
}

/**
 * The queue API's stub, for pages that call `LocalRank(...)` before the script has loaded. Put it
 * in a page script (or the page's own script file under a strict CSP) before the snippet.
 */
export const WIDGET_QUEUE_STUB = 'window.LocalRank=window.LocalRank||function(){(LocalRank.q=LocalRank.q||[]).push(arguments)};';

/** The React package (the ES module build), served beside the widget (widget-sdk/package.json's version). */
export const WIDGET_PACKAGE_FILE = 'localrank-widget-1.0.0.tgz';

/** The React usage (the ES module build, react as a peer dependency). */
export function widgetReactUsage({ baseUrl, publishableKey, components }: SnippetInput): string {
  const names = components.map((c) => (c === 'report-form' ? 'ReportForm' : 'ScoreCard'));
  const origin = baseUrl.replace(/\/$/, '');
  return [
    `// npm install ${origin}${WIDGET_BASE_PATH}${WIDGET_PACKAGE_FILE}`,
    `import { ${names.join(', ') || 'ReportForm'} } from '@localrank/widget';`,
    '',
    ...components.map((c) => `<${c === 'report-form' ? 'ReportForm' : 'ScoreCard'} publishableKey="${publishableKey}" origin="${origin}" />`),
  ].join('\n');
}

/** The consent line of the widget's form: it names the agency the visitor will hear from. */
export const widgetConsentText = (agency: string) =>
  `I agree to receive my free report from ${agency || 'this company'} and occasional marketing communications by e-mail. I can unsubscribe at any time.`;

// The widget API's answers (api/services/widget.ts makes them, the SDK reads them).
export interface WidgetTheme {
  /** The agency's primary colour: the button, the score card's rule. */
  primary: string;
  /** Text on the primary colour: white or near-black, whichever reads (textOn). */
  onPrimary: string;
  /** The primary colour darkened until it reads as text on white (inkOn): the score, links. */
  primaryInk: string;
  /** Headings (darkened like primaryInk when needed). */
  secondary: string;
  accent: string;
  /** The keyboard focus ring: the accent, moved towards black or white until it reads (3:1) on
   *  white, on the score card's grey and on the primary colour (ringOn). */
  focus: string;
}

/** The score card's background in the widget's stylesheet (widget-sdk/src/styles.ts). */
export const WIDGET_CARD_BACKGROUND = '#F1F5F9';

/** The agency's colours, with the text colours that keep the widget readable whatever they are
 *  (the contrast Branding Settings warns about). */
export function widgetTheme(primary: string, secondary: string, accent: string): WidgetTheme {
  // A colour too pale to see on white is drawn darker for the button and the score bars, as the
  // branding page says and the PDF does (a #FDFDF8 button on the white card could not be seen).
  const button = inkOn(primary, '#FFFFFF', MIN_GRAPHIC_CONTRAST);
  const bars = inkOn(accent, '#FFFFFF', MIN_GRAPHIC_CONTRAST);
  return { primary: button, onPrimary: textOn(button), primaryInk: inkOn(primary), secondary: inkOn(secondary), accent: bars, focus: ringOn(accent, ['#FFFFFF', WIDGET_CARD_BACKGROUND, button]) };
}
export const DEFAULT_WIDGET_THEME = /* @__PURE__ */ widgetTheme('#2563EB', '#1F2937', '#059669');

export interface WidgetConfig {
  agency: string;
  website: string | null;
  components: WidgetComponent[];
  theme: WidgetTheme;
  /** The form's consent line (widgetConsentText), written by the server like the thank-you: the
   *  widget carries no wording it need not (its 10 KB budget). */
  consent: string;
}

export interface ScoreCardData {
  company: string;
  overall: number | null;
  /** null without an overall score or without a market (fewer than 3 competitors, decision 0216). */
  rank: number | null;
  /** Places compared: the business and its competitors. */
  of: number;
  /** The rank as the card prints it: "Rank #3 of 10 nearby", "Not ranked", or without a market
   *  "No market: no competitor nearby" / "No market: 2 competitors nearby". */
  rankText: string;
  /** What a score without a number reads, when not "Not enough data": Market Share "No market"
   *  with fewer than 3 competitors nearby. */
  empty?: Partial<Record<'reviews' | 'digitalPresence' | 'engagement' | 'marketShare', string>>;
  scores: { reviews: number | null; digitalPresence: number | null; engagement: number | null; marketShare: number | null };
  sampleData: boolean;
}
