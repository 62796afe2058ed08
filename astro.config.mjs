// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import { PAGE_DIRECTIVES, PAGE_SCRIPT_SOURCES, PAGE_STYLE_SOURCES } from './api/lib/security-headers.ts';
import { precompress } from './api/lib/static-files.ts';
import { buildWidget } from './widget-sdk/build.ts';
import { buildApiClientPackage } from './scripts/lib/api-client-package.ts';
import { preactOnTheClient } from './scripts/lib/preact-on-the-client.ts';

// The public address is baked into pre-rendered pages (canonical, Open Graph, sitemap, robots).
// It defaults as api/env.ts does, and the build records it so `npm start` rebuilds when the
// address it serves under differs (scripts/build-if-needed.ts).
const site = process.env.PUBLIC_BASE_URL?.replace(/\/$/, '') || `http://localhost:${process.env.PORT || 4321}`;
const recordSite = {
  name: 'record-site-url',
  hooks: { 'astro:build:done': () => writeFileSync(new URL('./dist/site-url.txt', import.meta.url), site) },
};

// The typed API client (issue 39), packed into the static files under /api-client/v1/ so a
// customer installs it with one command (`npm install <site>/api-client/v1/localrank-api-client-….tgz`).
const apiClientPackage = {
  name: 'api-client-package',
  hooks: {
    /** @param {{ dir: URL, logger: { info: (m: string) => void } }} options */
    'astro:build:done': async ({ dir, logger }) => {
      await buildApiClientPackage(fileURLToPath(dir));
      logger.info('API client package built');
    },
  },
};

// The widget SDK (issue 15), built with tsup into the static files under /widget/v1/ before they
// are compressed, so `npm run build`, `npm start` and `npm test` always serve the current one.
const widgetSdk = {
  name: 'widget-sdk',
  hooks: {
    /** @param {{ dir: URL, logger: { info: (m: string) => void } }} options */
    'astro:build:done': async ({ dir, logger }) => {
      await buildWidget(fileURLToPath(dir));
      logger.info('widget SDK built');
    },
  },
};

// Static files are compressed once here (brotli and gzip beside each), not on every request
// (api/lib/static-files.ts serves them; decision 0090).
const precompressStatic = {
  name: 'precompress-static',
  hooks: {
    /** @param {{ dir: URL, logger: { info: (m: string) => void } }} options */
    'astro:build:done': ({ dir, logger }) => {
      const { files, bytes, brotliBytes } = precompress(fileURLToPath(dir));
      logger.info(`precompressed ${files} files: ${Math.round(bytes / 1024)} KB to ${Math.round(brotliBytes / 1024)} KB brotli`);
    },
  },
};

// client:interaction (site/lib/interaction-directive.ts): an island hydrated on the visitor's
// first pointer, focus or touch inside it, for forms above the fold of marketing pages.
const interactionDirective = {
  name: 'client-interaction',
  hooks: {
    /** @param {{ addClientDirective: (d: { name: string, entrypoint: string }) => void }} options */
    'astro:config:setup': ({ addClientDirective }) => addClientDirective({ name: 'interaction', entrypoint: fileURLToPath(new URL('./site/lib/interaction-directive.ts', import.meta.url)) }),
  },
};

export default defineConfig({
  srcDir: './site',
  // Static files (favicon, robots.txt) live beside the sources; Astro's default is ./public.
  publicDir: './site/public',
  output: 'server',
  // staticHeaders: the pre-rendered pages' policies go to dist/_headers.json, which
  // api/server.ts serves with them (decision 0133).
  adapter: node({ mode: 'standalone', staticHeaders: true }),
  integrations: [react(), interactionDirective, recordSite, widgetSdk, apiClientPackage, precompressStatic],
  site,
  server: { host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT || 4321) },
  build: { inlineStylesheets: 'always' },
  devToolbar: { enabled: false },
  // No Markdown here; Shiki's inline styles would not fit the CSP below.
  markdown: { syntaxHighlight: false },
  // Each page's Content-Security-Policy: script-src allows our origin and the hashes of the inline
  // scripts Astro emits, never 'unsafe-inline' (api/lib/security-headers.ts, decision 0133).
  security: {
    csp: {
      directives: PAGE_DIRECTIVES,
      scriptDirective: { resources: PAGE_SCRIPT_SOURCES },
      styleDirective: { resources: PAGE_STYLE_SOURCES },
    },
  },
  // Client chunks: the islands' runtime in one file and the small modules every island shares
  // (fetch helper, session and toast stores) in another, instead of a dozen tiny files. Fewer
  // requests, and about 1 KB less gzip on / than separate chunks (docs/decisions/0022). The shared
  // chunk holds nothing that imports React (not @nanostores/react): the top bar and the toasts use
  // it on every page without React (docs/decisions/0101). In the browser that runtime is Preact
  // with React's API, 9.5 KB gzip instead of React DOM's 67.7 (docs/decisions/0330).
  vite: {
    plugins: [preactOnTheClient()],
    build: {
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|preact)[\\/]|site[\\/]lib[\\/]preact-dom-client\.ts$/ },
              { name: 'app', test: /site[\\/]lib[\\/](api|session|toasts)\.ts$|node_modules[\\/]nanostores[\\/]/ },
            ],
          },
        },
      },
    },
  },
});
