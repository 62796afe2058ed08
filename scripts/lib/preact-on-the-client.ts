// The browser build runs the islands on Preact with React's API (preact/compat) instead of React
// DOM (decision 0330): React's client runtime alone is 67.7 KB gzip, more than the 60 KB a
// signed-in screen may download before any input (issue 47); Preact and compat are about 5 KB.
// Only the client environment is redirected: pages are still rendered on the server by React, and
// the islands' code, types and tests are React's.
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const IN_THE_BROWSER: Record<string, string> = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': fileURLToPath(new URL('../../site/lib/preact-dom-client.ts', import.meta.url)),
  'react/jsx-runtime': 'preact/compat/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/compat/jsx-dev-runtime',
};
/** The dev server pre-bundles these with the libraries that import React (@nanostores/react,
 *  Stripe's), so those share the islands' one copy of Preact instead of bundling another. */
const PREBUNDLED = ['preact', 'preact/hooks', 'preact/compat', 'preact/compat/jsx-runtime', 'preact/compat/jsx-dev-runtime'];

export function preactOnTheClient(): Plugin {
  return {
    name: 'preact-on-the-client',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'client',
    resolveId(source, importer, options) {
      const target = IN_THE_BROWSER[source];
      return target ? this.resolve(target, importer, { ...options, skipSelf: true }) : null;
    },
    configEnvironment(name) {
      if (name !== 'client') return;
      return {
        optimizeDeps: {
          include: PREBUNDLED,
          rolldownOptions: {
            plugins: [
              {
                name: 'preact-on-the-client:prebundle',
                resolveId(source, importer, options) {
                  const target = IN_THE_BROWSER[source];
                  return target ? this.resolve(target, importer, { ...options, skipSelf: true }) : null;
                },
              },
            ],
          },
        },
      };
    },
  };
}
