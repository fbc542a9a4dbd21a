package dev.ctxpack.bench.segment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Segmentation speed beside BreakIterator, in the segment eval's run: both systems segment the same
 * texts on one thread, one pass over all of them per round, for {@code seconds} each after a warm-up
 * pass; the best round counts. A rough figure to compare before/after a change in the same
 * conditions (JMH would be stricter); the machine's load is in {@code run.json}.
 */
final class SegmentSpeed {
  private SegmentSpeed() {}

  /** Characters per second of each system over {@code chars} characters of {@code text}. */
  record Speed(String text, long chars, double ctxpackCharsPerSecond, double breakIteratorCharsPerSecond) {}

  /** The SciFact corpus abstracts (title, a blank line, text), or none when the file is absent. */
  static List<String> sciFactTexts(Path dataDir) throws IOException {
    Path corpus = dataDir.resolve("scifact/beir_test/corpus.jsonl");
    List<String> out = new ArrayList<>();
    if (!Files.isRegularFile(corpus)) return out;
    ObjectMapper mapper = new ObjectMapper();
    try (BufferedReader r = Files.newBufferedReader(corpus, StandardCharsets.UTF_8)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.isBlank()) continue;
        JsonNode n = mapper.readTree(line);
        out.add(n.path("title").asText("") + "\n\n" + n.path("text").asText(""));
      }
    }
    return out;
  }

  static Speed measure(String label, List<String> texts, Language language, Locale locale, SentenceSegmenter segmenter, double seconds) {
    long chars = 0;
    for (String t : texts) chars += t.length();
    double best = 0;
    double bestBi = 0;
    long budget = (long) (seconds * 1e9);
    once(texts, language, segmenter);
    onceBreakIterator(texts, locale);
    long end = System.nanoTime() + budget;
    while (System.nanoTime() < end) {
      long t0 = System.nanoTime();
      long sink = once(texts, language, segmenter);
      long dt = System.nanoTime() - t0;
      if (sink < 0) throw new AssertionError();
      best = Math.max(best, chars / (dt / 1e9));
    }
    end = System.nanoTime() + budget;
    while (System.nanoTime() < end) {
      long t0 = System.nanoTime();
      long sink = onceBreakIterator(texts, locale);
      long dt = System.nanoTime() - t0;
      if (sink < 0) throw new AssertionError();
      bestBi = Math.max(bestBi, chars / (dt / 1e9));
    }
    return new Speed(label, chars, best, bestBi);
  }

  private static long once(List<String> texts, Language language, SentenceSegmenter segmenter) {
    long n = 0;
    for (String t : texts) {
      for (Span s : segmenter.split(t, language)) n += s.end();
    }
    return n;
  }

  private static long onceBreakIterator(List<String> texts, Locale locale) {
    long n = 0;
    BreakIterator it = BreakIterator.getSentenceInstance(locale);
    for (String t : texts) {
      it.setText(t);
      for (int b = it.next(); b != BreakIterator.DONE; b = it.next()) n += b;
    }
    return n;
  }
}
