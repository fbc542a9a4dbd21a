/**
 * The {@code ctxpack} application: the command line ({@code cli}), the HTTP service ({@code http})
 * and the JSON both speak ({@code json}). This package holds what all three share and nothing that
 * knows about any of them: the exit codes of docs/API.md ({@link dev.ctxpack.app.ExitCodes}), the
 * bad-input exception that is exit code 2 and HTTP 400 ({@link dev.ctxpack.app.UsageException}),
 * one-line error messages ({@link dev.ctxpack.app.Errors}), and the wiring of library components by
 * spec ({@link dev.ctxpack.app.Components}: embedders, indexes, retrievers, rerankers, the shipped
 * packer, compressor, verifier and assembler), so the CLI and the service build them the same way.
 *
 * <p>The rooms depend on each other in one direction only: {@code json} uses this package and the
 * library; {@code http} uses {@code json}; {@code cli} uses {@code json}, and {@code http} only to
 * start the service from {@code serve}. No class of the application names an index backend: indexes
 * are opened by spec ({@link dev.ctxpack.index.Indexes}).
 */
package dev.ctxpack.app;
