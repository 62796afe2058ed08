// Zod and the auth schemas are ~24 KB gzip: kept out of the pages' first JavaScript, fetched the
// first time the visitor types in or clicks the form (so it is there by the time they submit), at the latest
// on submit.
let schemas: Promise<typeof import('../../../common/schemas/auth.ts')> | null = null;

export function loadAuthSchemas() {
  schemas ??= import('../../../common/schemas/auth.ts').catch((error: unknown) => {
    schemas = null; // a network blip: the next attempt fetches again
    throw error;
  });
  return schemas;
}
