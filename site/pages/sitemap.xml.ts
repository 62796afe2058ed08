import type { APIRoute } from 'astro';
import { LEGAL_LAST_UPDATED } from '../../common/constants.ts';
import { PUBLIC_PAGES } from '../content/public-pages.ts';

export const prerender = true;

export const GET: APIRoute = ({ site }) => {
  const base = site ?? new URL('http://localhost:4321');
  const legalDate = new Date(`${LEGAL_LAST_UPDATED} UTC`).toISOString().slice(0, 10);
  const urls = PUBLIC_PAGES.map((page) => {
    const lastmod = page.path === '/privacy' || page.path === '/terms' ? `<lastmod>${legalDate}</lastmod>` : '';
    return `  <url><loc>${new URL(page.path, base).href}</loc>${lastmod}<changefreq>${page.changefreq}</changefreq><priority>${page.priority.toFixed(1)}</priority></url>`;
  });
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
