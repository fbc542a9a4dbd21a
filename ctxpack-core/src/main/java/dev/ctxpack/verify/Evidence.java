package dev.ctxpack.verify;

/**
 * The source text that best supports (or contradicts) a claim: the source ID, the span's offsets
 * into that source's text ({@code [start, end)}, UTF-16 chars), the span itself and its support
 * score in {@code [0, 1]}.
 */
public record Evidence(String source, int start, int end, String text, double score) {}
