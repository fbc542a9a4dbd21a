package dev.ctxpack.pii;

/** A recognised value: its type, {@code [start, end)} in the scanned text, and the normalised value that identifies it. */
public record PiiMatch(PiiType type, int start, int end, String value) {}
