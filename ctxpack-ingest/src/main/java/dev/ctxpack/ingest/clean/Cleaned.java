package dev.ctxpack.ingest.clean;

import dev.ctxpack.ingest.LoadedDocument;
import java.util.List;
import java.util.Map;

/**
 * A document after cleaning: {@code doc} holds the cleaned text (NFC, LF) with its section marks and
 * page starts moved onto it; {@code removals} the recorded removals, in offsets of the loaded text,
 * by start; {@code counts} how many spans were changed per reason label (recorded ones included).
 */
public record Cleaned(LoadedDocument doc, List<Removal> removals, Map<String, Integer> counts) {
  public Cleaned {
    removals = List.copyOf(removals);
    counts = Map.copyOf(counts);
  }
}
