/**
 * The {@code ctxpack} command line (picocli): {@link dev.ctxpack.app.cli.Main} and its commands
 * ({@code demo}, {@code ingest}, {@code chunk}, {@code remove}, {@code corpus-report}, {@code search},
 * {@code dedup}, {@code compress}, {@code pack}, {@code assemble}, {@code verify}, {@code serve},
 * {@code memory}, {@code help}), the option groups they share ({@code CommonOptions}, {@code
 * DedupFlags}, {@code FusionFlags}, {@code LlmFlags}, {@code CleaningFlags}), the progress bar and
 * the {@code --batch} runner. Each command parses its options into the library's option records,
 * wires the components ({@link dev.ctxpack.app.Components}) and prints text for people or the JSON
 * of docs/API.md, written by {@code dev.ctxpack.app.json}; a {@code --batch} line runs the same
 * function as the service's route. {@code serve} parses its options into a service configuration
 * and starts the service. Exit codes: 0 success, 1 runtime failure, 2 usage error.
 */
package dev.ctxpack.app.cli;
