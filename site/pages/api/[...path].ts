// `npm run dev` serves /api through Astro; in production api/server.ts routes /api straight to
// the Hono app before Astro sees it, so this file only matters in development.
import type { APIRoute } from 'astro';
import { createApp, type App } from '../../../api/app.ts';
import { getContext } from '../../lib/server-context.ts';

let app: App | undefined;

export const ALL: APIRoute = async ({ request }) => {
  app ??= createApp(await getContext());
  return app.fetch(request);
};
