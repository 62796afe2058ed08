// A page that sets only `Astro.response.status` (404, 410, …) would go out as "404 OK": Astro
// keeps its default status text. The reason phrase follows the status here, for every page.
import { STATUS_CODES } from 'node:http';
import { defineMiddleware } from 'astro:middleware';

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  if (response.status === 200 || response.statusText !== 'OK') return response;
  return new Response(response.body, { status: response.status, statusText: STATUS_CODES[response.status] ?? '', headers: response.headers });
});
