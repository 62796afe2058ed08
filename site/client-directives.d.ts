// The site's own client directive (astro.config.mjs, site/lib/interaction-directive.ts).
declare module 'astro' {
  interface AstroClientDirectives {
    'client:interaction'?: boolean;
  }
}
export {};
