/**
 * {@code ctxpack serve}: the batch commands over HTTP (Javalin on embedded Jetty), built from a
 * {@link dev.ctxpack.app.http.ServiceConfig} by {@link dev.ctxpack.app.http.Service#start} out of
 * library components and the JSON functions of {@code dev.ctxpack.app.json}, never by parsing
 * command-line options. {@code Service} opens the collections and registers the routes; {@code
 * Endpoints} builds each route's work with its command's defaults; {@code HttpService} is the web
 * server (body limits, strict UTF-8, the endpoint pool and its queue, timeouts, errors as {@code
 * {"error": {"code", "message"}}}, graceful stop); {@code ServeCollections} holds the tenants'
 * collections and the routes that depend on who asks (documents, memories); {@code Tenants} maps
 * API keys to callers; {@code Metrics} is {@code GET /metrics}; {@code Inspector} the page at
 * {@code GET /}.
 */
package dev.ctxpack.app.http;
