// Starts Swagger UI on the /docs page: a served file, not an inline script, so the page's CSP can allow scripts from 'self' only.
/* global window, document, SwaggerUIBundle */
'use strict';

window.addEventListener('DOMContentLoaded', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-url'),
    domNode: root,
    deepLinking: true,
    // The default posts the document to an outside validator service, which the CSP (and we) forbid.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
