package dev.ctxpack.compress;

/**
 * One sentence of the input: {@code input} is the passage's position in the request, {@code part}
 * the part within it, {@code index} the sentence's position within the part, {@code [start, end)}
 * its offsets in the part's text.
 */
public record Sentence(int input, int part, int index, int start, int end, String text) {}
