package dev.ctxpack.verify;

import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.compress.CompressOptions;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.RelevanceGate;
import dev.ctxpack.compress.Sentence;
import java.io.IOException;
import java.util.List;

/**
 * Whether abstaining (or answering) was right, judged with {@code pack}'s relevance line: the
 * sources answer the query when they would clear the line a {@code pack} request applies to its
 * evidence ({@link ExtractiveCompressor#gate}): the best sentence that is not noise, a repeat or
 * off the query's topic is at least {@code line} likely to hold the answer (the compressor's
 * calibrated scorer, its lexical model), or at least {@link RelevanceGate#COVERED_SHARE} of it with its
 * passage covering {@code coverage} of the query. So the packer and the verifier say the same of
 * the same sources. The last check of {@link EvidenceVerifier#verify}, run only with a query and
 * sources; the sentence it found is quoted in the feedback of a wrong abstention. Thread-safe if
 * its compressor is.
 */
final class Abstention {
  /** The judgement: {@code correct} null when there was nothing to judge; the answering sentence, labelled, or null. */
  record Judged(Boolean correct, String answeringSentence) {}

  private static final Judged NOT_JUDGED = new Judged(null, null);

  private final ExtractiveCompressor compressor;
  private final CompressOptions gate;

  /**
   * {@code line}: the relevance line ({@link RelevanceGate#AUTO} for the packer's default); {@code
   * coverage}: the coverage that lets a best sentence under it through ({@link RelevanceGate#AUTO}:
   * the packer's default with the default line, none with a line set by hand; {@link
   * RelevanceGate#NO_COVER}: none), read as {@link RelevanceGate#coverageNeeded} reads it.
   */
  Abstention(ExtractiveCompressor compressor, double line, double coverage) {
    this.compressor = compressor;
    double p = RelevanceGate.line(line); // the same line for every budget
    // No budget: nothing is selected, only the gate is read. A line of 0 leaves every eligible
    // sentence answering.
    this.gate = RelevanceGate.apply(CompressOptions.threshold(p), p, RelevanceGate.DEFAULT_RELATIVE,
        RelevanceGate.coverageNeeded(line, coverage));
  }

  Judged judge(String query, SourceSentences r, boolean abstained) throws IOException {
    List<CompressInput> inputs = r.inputs;
    if (query == null || query.isBlank() || inputs.isEmpty()) return NOT_JUDGED;
    ExtractiveCompressor.Gate g = compressor.gate(query, inputs, r.sentences, gate);
    boolean answerableHere = g.passed();
    String answeringSentence = null;
    if (answerableHere) {
      Sentence s = g.sentence();
      answeringSentence = "[" + inputs.get(s.input()).id() + "] \"" + Feedback.clip(s.text()) + "\"";
    }
    return new Judged(abstained != answerableHere, answeringSentence);
  }
}
