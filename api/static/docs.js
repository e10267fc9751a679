// Starts Swagger UI on /api/docs. A file rather than an inline script, so the page's
// Content-Security-Policy can refuse every inline script.
"use strict";

const root = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: root.dataset.specUrl,
  domNode: root,
  layout: "BaseLayout",
  deepLinking: true,
  displayOperationId: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
  tryItOutEnabled: false,
  persistAuthorization: false,
  // No badge from an outside validator: the page talks to this origin only.
  validatorUrl: null,
});
