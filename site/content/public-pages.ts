// The pages search engines may index: the sitemap lists them, the OG images are drawn for them,
// and `npm run bench:site` audits them.
export interface PublicPage {
  path: string;
  /** The page's share-image slug (/og/{slug}.png). */
  og: string;
  title: string;
  subtitle: string;
  changefreq: 'weekly' | 'monthly' | 'yearly';
  priority: number;
}

export const PUBLIC_PAGES: readonly PublicPage[] = [
  { path: '/', og: 'default', title: 'How does your business rank locally?', subtitle: 'Free report: you against your top 9 competitors within 20 miles', changefreq: 'weekly', priority: 1 },
  { path: '/faq', og: 'faq', title: 'Frequently Asked Questions', subtitle: 'Reports, scores, plans, API access and your data', changefreq: 'monthly', priority: 0.7 },
  { path: '/help-center', og: 'help-center', title: 'Help Center', subtitle: 'Guides to your report, the scores, plans, alerts and the API', changefreq: 'monthly', priority: 0.7 },
  { path: '/methodology', og: 'methodology', title: 'How LocalRank scores a business', subtitle: 'Every data point, its source, weight and how it is normalised', changefreq: 'monthly', priority: 0.6 },
  { path: '/docs/api', og: 'docs-api', title: 'LocalRank API', subtitle: 'Reports, businesses, alerts, clients and signed webhooks', changefreq: 'monthly', priority: 0.6 },
  { path: '/contact', og: 'contact', title: 'Contact Us', subtitle: 'Replies within 24-48 hours, Mon-Fri 9am-6pm EST', changefreq: 'yearly', priority: 0.5 },
  { path: '/privacy', og: 'privacy', title: 'Privacy Policy', subtitle: 'Encrypted storage, no data selling, deletion on request', changefreq: 'yearly', priority: 0.3 },
  { path: '/privacy/data', og: 'privacy-data', title: 'Your Data', subtitle: 'How each kind of data is exported, erased and kept', changefreq: 'monthly', priority: 0.3 },
  { path: '/terms', og: 'terms', title: 'Terms of Service', subtitle: 'The agreement between you and LocalRank', changefreq: 'yearly', priority: 0.3 },
];
