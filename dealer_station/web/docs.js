// Starts Swagger UI on /docs (dealer_station/api/docs_page.py): a file, not an
// inline script, so the page's Content-Security-Policy can forbid inline code.
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui" });
