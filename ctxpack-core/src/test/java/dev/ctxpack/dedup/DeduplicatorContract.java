package dev.ctxpack.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import dev.ctxpack.similarity.PassageVectors;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * The contract every {@link Deduplicator} must keep (in the manner of Lucene's {@code Base…TestCase}):
 * a subclass supplies the deduplicator (and, if it compares meaning, the vectors it is given) and
 * inherits every check, over random lists of real-looking passages: exact copies, near copies with a
 * sentence added, overlapping windows of one document, negated copies, copies with another number,
 * in English and Portuguese.
 *
 * <ul>
 *   <li>provenance: every input's sources are in exactly one output's sources, and nothing else is;
 *   <li>verbatim: every piece of every output is its document's text at its span;
 *   <li>best first, deterministic, independent of the input's order, thread-safe, input untouched;
 *   <li>a passage that differs from another in a negation or a number is never merged into it;
 *   <li>every input that does not lead an output is named by a drop, merge, stitch or group decision
 *       of the dedup stage; every pair kept apart names two input passages.
 * </ul>
 */
public abstract class DeduplicatorContract {
  private static final Tokenizer TOK = Tokenizers.defaultTokenizer();

  /** The deduplicator under test. */
  protected abstract Deduplicator deduplicator();

  /** The passage vectors it is given (none by default). */
  protected PassageVectors vectors() {
    return PassageVectors.none();
  }

  private static final String[] EN = {
    "The committee approved the new budget for the public library after a long debate on Tuesday evening.",
    "The library will open on Sundays from next month, and the reading room will be renovated in summer.",
    "The mayor said the city would also hire two new librarians for the children's section this year.",
    "Volunteers can register at the front desk of the main building on weekday mornings."};
  private static final String[] PT = {
    "A renovação de matrícula é feita no portal do estudante em cada semestre letivo da universidade.",
    "O estudante que não renovar a matrícula no prazo perde o vínculo com o curso de graduação.",
    "O pedido de trancamento pode ser feito uma vez por curso, até a metade do semestre letivo.",
    "A coordenação publica a lista de pedidos aceitos no mural do curso antes do início das aulas."};

  /** The documents a random list is cut from: their text by id, so pieces can be checked verbatim. */
  private record Corpus(List<Candidate> candidates, Map<String, String> docs) {}

  private static Corpus corpus(long seed) {
    Random r = new Random(seed);
    Map<String, String> docs = new HashMap<>();
    List<Candidate> out = new ArrayList<>();
    int n = 3 + r.nextInt(10);
    for (int i = 0; i < n; i++) {
      boolean pt = r.nextBoolean();
      String[] s = pt ? PT : EN;
      StringBuilder sb = new StringBuilder();
      int from = r.nextInt(2);
      for (int k = from; k < from + 3; k++) sb.append(s[k]).append(' ');
      String text = sb.toString().strip();
      switch (r.nextInt(6)) {
        case 0 -> { } // as is: an exact copy of another of the same choice
        case 1 -> text = text + " " + s[3]; // a near copy with a sentence added
        case 2 -> text = pt ? text.replace("é feita", "não é feita") : text.replace("approved", "did not approve");
        case 3 -> text = pt ? text.replace("uma vez", "duas vezes") : text.replace("two new", "five new");
        case 4 -> text = text.replace("library", "museum").replace("matrícula", "inscrição");
        default -> { }
      }
      String docId = "d" + i;
      Language lang = pt ? Language.PT : Language.EN;
      if (r.nextInt(4) == 0 && text.length() > 120) {
        // Two overlapping windows of one document.
        docs.put(docId, text);
        int cut = 60 + r.nextInt(text.length() - 110);
        out.add(candidate(docId + "#0", docId, lang, text, 0, cut + 30, r.nextDouble()));
        out.add(candidate(docId + "#1", docId, lang, text, cut, text.length(), r.nextDouble()));
      } else {
        docs.put(docId, text);
        out.add(candidate(docId + "#0", docId, lang, text, 0, text.length(), r.nextDouble()));
      }
    }
    return new Corpus(out, docs);
  }

  private static Candidate candidate(String id, String docId, Language lang, String docText, int start, int end,
      double score) {
    String text = docText.substring(start, end);
    Chunk c = new Chunk(id, docId, new Span(start, end), text, "", 0, TOK.count(text));
    return new Candidate(c, new DocInfo(docId, "", "Title of " + docId, lang, Map.of()), Scores.of(Signal.FUSED, score));
  }

  private static List<Passage> ranked(List<Candidate> candidates) {
    List<Passage> ps = new ArrayList<>(candidates.stream().map(Passage::of).toList());
    ps.sort((a, b) -> a.score() != b.score() ? Double.compare(b.score(), a.score()) : a.id().compareTo(b.id()));
    return ps;
  }

  private Deduplication run(List<Passage> in, Trace trace) throws IOException {
    return deduplicator().dedup(in, TOK, vectors(), trace);
  }

  @Property(tries = 60)
  void everyInputsSourcesLandInExactlyOneOutput(@ForAll @LongRange(min = 0, max = 1_000_000) long seed) throws IOException {
    Corpus c = corpus(seed);
    List<Passage> in = ranked(c.candidates());
    Deduplication d = run(in, new Trace());
    Map<String, Integer> seen = new HashMap<>();
    for (Passage p : d.passages()) for (Candidate s : p.sources()) seen.merge(s.chunk().id(), 1, Integer::sum);
    Set<String> expected = new HashSet<>();
    for (Passage p : in) for (Candidate s : p.sources()) expected.add(s.chunk().id());
    assertThat(seen.keySet()).as("seed %d", seed).isEqualTo(expected);
    assertThat(seen.values()).as("seed %d: each source in exactly one output", seed).containsOnly(1);
  }

  @Property(tries = 60)
  void everyPieceIsItsDocumentsTextAtItsSpan(@ForAll @LongRange(min = 0, max = 1_000_000) long seed) throws IOException {
    Corpus c = corpus(seed);
    for (Passage p : run(ranked(c.candidates()), new Trace()).passages()) {
      assertThat(p.pieces()).as("seed %d", seed).isNotEmpty();
      for (Passage.Piece piece : p.pieces()) {
        String doc = c.docs().get(piece.docId());
        assertThat(piece.text()).as("seed %d, %s %s", seed, piece.docId(), piece.span())
            .isEqualTo(doc.substring(piece.span().start(), piece.span().end()));
      }
      assertThat(p.text()).isEqualTo(Passage.join(p.pieces()));
    }
  }

  @Property(tries = 40)
  void bestFirstDeterministicAndIndependentOfInputOrder(@ForAll @LongRange(min = 0, max = 1_000_000) long seed)
      throws IOException {
    Corpus c = corpus(seed);
    List<Passage> in = ranked(c.candidates());
    Deduplication a = run(in, new Trace());
    List<Passage> shuffled = new ArrayList<>(in);
    Collections.shuffle(shuffled, new Random(seed));
    Trace t = new Trace();
    Deduplication b = run(shuffled, t);
    assertThat(b).as("seed %d: shuffled input", seed).isEqualTo(a);
    Trace again = new Trace();
    run(shuffled, again);
    assertThat(again.decisions()).as("seed %d: the same decisions", seed).isEqualTo(t.decisions());
    for (int i = 1; i < a.passages().size(); i++) {
      Passage x = a.passages().get(i - 1);
      Passage y = a.passages().get(i);
      assertThat(x.score() > y.score() || (x.score() == y.score() && x.id().compareTo(y.id()) < 0))
          .as("seed %d: %s before %s", seed, x.id(), y.id()).isTrue();
    }
  }

  @Property(tries = 40)
  void everyAbsorbedInputIsADecisionAndEveryPairKeptApartNamesInputs(
      @ForAll @LongRange(min = 0, max = 1_000_000) long seed) throws IOException {
    Corpus c = corpus(seed);
    List<Passage> in = ranked(c.candidates());
    Trace trace = new Trace();
    Deduplication d = run(in, trace);
    Set<String> ids = new HashSet<>();
    for (Passage p : in) ids.add(p.id());
    Set<String> leads = new HashSet<>();
    for (Passage p : d.passages()) leads.add(p.id());
    assertThat(ids).as("seed %d: outputs are inputs", seed).containsAll(leads);
    Set<String> absorbed = new HashSet<>();
    for (Decision x : trace.decisions()) {
      assertThat(x.stage()).isEqualTo(Stage.DEDUP);
      if (List.of(Action.DROP, Action.MERGE, Action.STITCH, Action.GROUP).contains(x.action())) {
        absorbed.addAll(x.ids());
        assertThat(ids).as("seed %d: %s names an input it went into", seed, x).contains(x.into());
      }
    }
    for (String id : ids) {
      if (!leads.contains(id)) assertThat(absorbed).as("seed %d: %s left without a decision", seed, id).contains(id);
    }
    for (KeptApart k : d.keptApart()) {
      assertThat(ids).as("seed %d", seed).contains(k.passage(), k.into());
      assertThat(k.passage()).isNotEqualTo(k.into());
    }
  }

  @Example
  void aNegatedOrRenumberedCopyIsNeverMergedInEitherLanguage() throws IOException {
    String en = EN[0] + " " + EN[1] + " " + EN[2];
    String pt = PT[0] + " " + PT[1] + " " + PT[2];
    List<Candidate> c = List.of(
        candidate("en#0", "en", Language.EN, en, 0, en.length(), 0.9),
        candidate("en-not#0", "en-not", Language.EN, en.replace("approved", "did not approve"), 0,
            en.replace("approved", "did not approve").length(), 0.8),
        candidate("en-five#0", "en-five", Language.EN, en.replace("two new", "five new"), 0,
            en.replace("two new", "five new").length(), 0.7),
        candidate("pt#0", "pt", Language.PT, pt, 0, pt.length(), 0.6),
        candidate("pt-nao#0", "pt-nao", Language.PT, pt.replace("é feita", "não é feita"), 0,
            pt.replace("é feita", "não é feita").length(), 0.5),
        candidate("pt-duas#0", "pt-duas", Language.PT, pt.replace("uma vez", "duas vezes"), 0,
            pt.replace("uma vez", "duas vezes").length(), 0.4));
    Deduplication d = run(ranked(c), new Trace());
    for (Passage p : d.passages()) {
      assertThat(p.sources()).as("%s merged what differs in a negation or number", p.id()).hasSize(1);
    }
  }

  @Example
  void exactCopiesOfOneTextLeaveOnePassageCitingAll() throws IOException {
    String t = EN[0] + " " + EN[1];
    List<Candidate> c = List.of(candidate("a#0", "a", Language.EN, t, 0, t.length(), 0.9),
        candidate("b#0", "b", Language.EN, t, 0, t.length(), 0.5), candidate("c#0", "c", Language.EN, t, 0, t.length(), 0.7));
    Deduplication d = run(ranked(c), new Trace());
    assertThat(d.passages()).hasSize(1);
    assertThat(d.passages().get(0).id()).isEqualTo("a#0");
    assertThat(d.passages().get(0).sources()).extracting(s -> s.chunk().id()).containsExactlyInAnyOrder("a#0", "b#0", "c#0");
  }

  @Example
  void nothingInNothingOutAndTheInputIsLeftAsItWas() throws IOException {
    assertThat(run(List.of(), new Trace()).passages()).isEmpty();
    List<Passage> in = List.copyOf(ranked(corpus(7).candidates()));
    List<Passage> copy = new ArrayList<>(in);
    run(in, new Trace()); // an unmodifiable input is accepted
    assertThat(in).isEqualTo(copy);
  }

  @Example
  void concurrentCallsGiveTheSameResult() throws Exception {
    List<List<Passage>> inputs = new ArrayList<>();
    List<Deduplication> expected = new ArrayList<>();
    for (long s = 0; s < 8; s++) {
      List<Passage> in = ranked(corpus(s).candidates());
      inputs.add(in);
      expected.add(run(in, new Trace()));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Deduplication>> got = new ArrayList<>();
      for (int round = 0; round < 4; round++) {
        for (List<Passage> in : inputs) got.add(pool.submit(() -> run(in, new Trace())));
      }
      for (int i = 0; i < got.size(); i++) assertThat(got.get(i).get()).isEqualTo(expected.get(i % inputs.size()));
    } finally {
      pool.shutdownNow();
    }
  }
}
