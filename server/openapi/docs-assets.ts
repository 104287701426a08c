// The files the /docs page loads, by URL name: Swagger UI from node_modules and our init script; nothing else is served.
import path from 'node:path';

const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** Where the assets are served; the page and the router both build URLs from it. */
export const ASSETS_PATH = '/docs/assets';

/** An allow-list rather than express.static on the package folder, which also holds a demo page pointing at an outside document. */
export const DOCS_ASSETS: ReadonlyMap<string, string> = new Map([
  ['swagger-ui.css', path.join(SWAGGER_UI_DIR, 'swagger-ui.css')],
  ['swagger-ui-bundle.js', path.join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js')],
  ['favicon-32x32.png', path.join(SWAGGER_UI_DIR, 'favicon-32x32.png')],
  // `npm run build` must copy server/openapi/static next to the compiled file for this path to hold in dist/.
  ['docs-init.js', path.join(__dirname, 'static', 'docs-init.js')],
]);

export const assetUrl = (name: string) => `${ASSETS_PATH}/${name}`;
