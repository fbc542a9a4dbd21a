package dev.ctxpack.dedup;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.text.TextNormalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first level of the dedup cascade: texts equal after {@link TextNormalizer#identityForm}
 * (Unicode NFKC, case and whitespace folded) are one passage. The best-ranked copy's text is kept;
 * the others are dropped and their sources cited with it.
 */
public final class ExactDeduplicator implements Deduplicator {
  public static final String RULE = "exact:normalized-sha256";

  @Override
  public List<Passage> dedup(List<Candidate> ranked, Trace trace) {
    Map<String, List<Candidate>> groups = new LinkedHashMap<>();
    for (Candidate c : ranked) {
      groups.computeIfAbsent(TextNormalizer.contentHash(c.chunk().text()), h -> new ArrayList<>()).add(c);
    }
    List<Passage> out = new ArrayList<>(groups.size());
    for (List<Candidate> group : groups.values()) {
      Candidate kept = group.get(0);
      for (Candidate dup : group.subList(1, group.size())) {
        trace.add("dedup", "drop", RULE, List.of(dup.chunk().id()), kept.chunk().id(), dup.chunk().tokens(),
            "same text as " + kept.chunk().id() + " after normalisation; " + dup.doc().id()
                + " is cited as a source of the kept passage");
      }
      out.add(Passage.of(kept.chunk().id(), List.of(Passage.Piece.of(kept.chunk())), group, kept.score()));
    }
    return out;
  }
}
