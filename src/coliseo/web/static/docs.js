// The API page: Swagger UI served by the app itself (no CDN), started here because the policy forbids inline scripts.
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
