/**
 * The {@code ctxpack} command line (picocli): {@code demo}, {@code ingest}, {@code chunk},
 * {@code remove}, {@code search} and {@code pack}, each a thin layer that parses options into the
 * library's option records, wires the components ({@link dev.ctxpack.app.Components}) and prints the
 * JSON of docs/API.md or text for people. Exit codes: 0 success, 1 runtime failure, 2 usage error.
 */
package dev.ctxpack.app;
