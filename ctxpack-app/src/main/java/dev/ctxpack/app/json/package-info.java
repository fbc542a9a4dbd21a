/**
 * The JSON of ctxpack, shared by the command line and the service: the readers of request fields
 * with their caps and messages ({@link dev.ctxpack.app.json.Requests}), the views of packages,
 * search results, compressions, dedup results, verifications and assembled windows ({@link
 * dev.ctxpack.app.json.Views} and the per-command classes), and for each batch command the function
 * from one request object to one result object ({@link dev.ctxpack.app.json.JsonEndpoint}: {@link
 * dev.ctxpack.app.json.SearchEndpoint}, {@link dev.ctxpack.app.json.PackEndpoint}, {@link
 * dev.ctxpack.app.json.CompressEndpoint}, {@link dev.ctxpack.app.json.DedupEndpoint}, {@link
 * dev.ctxpack.app.json.VerifyEndpoint}, {@link dev.ctxpack.app.json.AssembleEndpoint}). A
 * {@code --batch} line and {@code POST /v1/<command>} run the same function, so they cannot drift.
 *
 * <p>This package takes library components and JSON and gives JSON: it knows neither picocli nor
 * HTTP. The command line and the service use it; it uses neither.
 */
package dev.ctxpack.app.json;
