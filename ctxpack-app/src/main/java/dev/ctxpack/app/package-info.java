/**
 * The {@code ctxpack} command line (picocli): {@code demo}, {@code ingest}, {@code chunk},
 * {@code remove}, {@code search}, {@code dedup}, {@code compress}, {@code pack}, {@code verify} and
 * {@code serve}, each a thin layer that parses options into the library's option records, wires the
 * components ({@link dev.ctxpack.app.Components}) and prints the JSON of docs/API.md or text for
 * people. Exit codes: 0 success, 1 runtime failure, 2 usage error. A batch command's per-request
 * work is a {@link dev.ctxpack.app.JsonEndpoint}, run per line by {@code --batch} and per request by
 * {@code serve} ({@link dev.ctxpack.app.HttpService}).
 */
package dev.ctxpack.app;
