// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';

export default defineConfig({
  srcDir: './site',
  // Static files (favicon, robots.txt) live beside the sources; Astro's default is ./public.
  publicDir: './site/public',
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  integrations: [react()],
  site: process.env.PUBLIC_BASE_URL ?? 'http://localhost:4321',
  server: { host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 4321) },
  build: { inlineStylesheets: 'always' },
  devToolbar: { enabled: false },
});
