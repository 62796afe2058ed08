// `npm run dev`: Astro's dev server with hot reload; /api goes through site/pages/api.
import { resolve } from 'node:path';
import { dev } from 'astro';

const root = resolve(import.meta.dirname, '..');
process.env.NODE_ENV ??= 'development';
await dev({ root });
