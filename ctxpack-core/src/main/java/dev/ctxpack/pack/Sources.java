package dev.ctxpack.pack;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Passages as the sources a prompt shows: labelled {@code S1}, {@code S2}... in prompt order. */
final class Sources {
  private Sources() {}

  /** {@code passages} labelled in order, each with the sentences compression cut from it ({@code cut}, by passage id). */
  static List<Source> label(List<Passage> passages, Map<String, List<Source.Dropped>> cut) {
    List<Source> out = new ArrayList<>(passages.size());
    for (int i = 0; i < passages.size(); i++) {
      Passage p = passages.get(i);
      out.add(toSource(p, "S" + (i + 1), cut.getOrDefault(p.id(), List.of())));
    }
    return out;
  }

  static Source toSource(Passage p, String label) {
    return toSource(p, label, List.of());
  }

  private static Source toSource(Passage p, String label, List<Source.Dropped> dropped) {
    Candidate c = p.primary();
    List<Source.DocSpan> spans = p.sources().stream()
        .map(s -> new Source.DocSpan(s.doc().id(), s.chunk().span().start(), s.chunk().span().end(), s.chunk().id()))
        .toList();
    return new Source(label, c.doc().id(), c.doc().title(), c.doc().uri(), c.chunk().section(), c.chunk().page(),
        c.doc().date(), spans, p.text(), p.id(), p.pieces(), dropped);
  }
}
