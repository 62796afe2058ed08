import type { APIRoute } from 'astro';

export const prerender = true;

// Signed-in screens, one-off report links and the API are not for search engines.
const PRIVATE = ['/api/', '/account', '/dashboard', '/early-warning/', '/subscribe', '/report/', '/unsubscribe', '/dev/'];

export const GET: APIRoute = ({ site }) => {
  const sitemap = new URL('/sitemap.xml', site ?? 'http://localhost:4321').href;
  const body = ['User-agent: *', 'Allow: /', ...PRIVATE.map((p) => `Disallow: ${p}`), '', `Sitemap: ${sitemap}`, ''].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
