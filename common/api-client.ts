// Where the typed API client (packages/api-client) is served: a customer installs it with
// `npm install <site>${API_CLIENT_BASE_PATH}${API_CLIENT_FILE}` (scripts/lib/api-client-package.ts
// packs it into the site's static files; the version is the package's, checked by its test).
export const API_CLIENT_VERSION = '1.0.0';
export const API_CLIENT_BASE_PATH = '/api-client/v1/';
export const API_CLIENT_FILE = `localrank-api-client-${API_CLIENT_VERSION}.tgz`;
