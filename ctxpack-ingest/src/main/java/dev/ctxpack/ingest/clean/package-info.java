/**
 * Cleaning, between loading and chunking: the {@link dev.ctxpack.ingest.clean.Cleaner} turns a
 * loaded document into the text that is stored (NFC, LF, whitespace normalised; running heads and
 * feet, corpus boilerplate lines, lines repeated within a document and {@code --remove} matches
 * taken out), records each removal with its offsets in the loaded text, and moves section marks
 * and page starts onto the cleaned text. {@link dev.ctxpack.ingest.clean.CorpusLines} holds the
 * line statistics of the ingestion's pre-pass.
 */
package dev.ctxpack.ingest.clean;
