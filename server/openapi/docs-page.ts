// The /docs page: Swagger UI reading /openapi.json, every script and style from this origin, no inline script.
import { assetUrl } from './docs-assets';

export const OPENAPI_PATH = '/openapi.json';

/**
 * Scripts and styles from 'self' only. Swagger UI sets styles through the DOM (allowed), its CSS embeds
 * data: images, and "Try it out" and the OAuth2 password flow fetch from this origin.
 */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>snippets API reference</title>
<link rel="icon" type="image/png" href="${assetUrl('favicon-32x32.png')}">
<link rel="stylesheet" href="${assetUrl('swagger-ui.css')}">
</head>
<body>
<div id="swagger-ui" data-url="${OPENAPI_PATH}"></div>
<script src="${assetUrl('swagger-ui-bundle.js')}"></script>
<script src="${assetUrl('docs-init.js')}"></script>
</body>
</html>
`;
