// /og/{page}.png: each public page's share image, rendered once at build time.
import type { APIRoute, GetStaticPaths } from 'astro';
import { PUBLIC_PAGES } from '../../content/public-pages.ts';
import { renderOgImage } from '../../lib/og-image.ts';

export const prerender = true;

export const getStaticPaths = (() => PUBLIC_PAGES.map((page) => ({ params: { page: page.og }, props: { title: page.title, subtitle: page.subtitle } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const png = await renderOgImage(props as { title: string; subtitle: string });
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
