package dev.ctxpack.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link Reranker} must keep (in the manner of Lucene's {@code Base…TestCase}): a
 * subclass supplies the reranker and inherits every check. It lives in ctxpack-core's test jar, so
 * the model-backed rerankers of ctxpack-onnx run it too.
 *
 * <ul>
 *   <li>every input candidate comes back exactly once, with its chunk and document, a finite
 *       {@link Signal#RERANK} score set and every other score kept as it was;
 *   <li>a rerank score already on the input is replaced, not read;
 *   <li>the result is best first, equal scores in chunk-id order;
 *   <li>the same input gives the same output (same instance, or another from {@link #reranker()});
 *   <li>empty in, empty out; one candidate in, that candidate out;
 *   <li>the input list is not modified (an unmodifiable list is accepted);
 *   <li>the order of the input does not change any candidate's score (unless the implementation
 *       declares, with {@link #scoresDependOnInputOrder()}, that it reads the input position);
 *   <li>{@link Reranker#id()} is non-blank and the same on every call;
 *   <li>concurrent callers get the same result (the interface says thread-safe).
 * </ul>
 *
 * <p>The default {@link #candidates()} mix titled and untitled documents, candidates with all, some
 * and none of the first-stage signals, and two that differ only in their chunk ids (listed out of id
 * order, so a tie must be broken by id).
 */
public abstract class RerankerContract {

  /** The query the checks rerank for; implementations that reject a blank query accept it. */
  protected static final String QUERY = "how does bm25 rank documents by term frequency";

  /** The reranker under test; a fresh or a shared instance, both must work. */
  protected abstract Reranker reranker();

  /**
   * Whether the implementation's scores read each candidate's position in the input list (the
   * shipped {@link FeatureReranker} does: {@code input_rr}). Then the input-order check is skipped
   * (reported as such), every other check still runs.
   */
  protected boolean scoresDependOnInputOrder() {
    return false;
  }

  /** The candidates most checks rerank, in an order that is neither id order nor best first. */
  protected List<Candidate> candidates() {
    return List.of(
        candidate("c07", "Ranking with BM25", "BM25 ranks documents by term frequency and inverse document frequency.",
            Scores.of(Signal.BM25, 12.0).with(Signal.DENSE, 0.71).with(Signal.FUSED, 0.032)),
        candidate("c03", "", "Cats sleep for most of the day.",
            Scores.of(Signal.DENSE, 0.12).with(Signal.FUSED, 0.010)),
        candidate("c05", "", "Dense retrieval ranks documents with vectors instead of terms.",
            Scores.of(Signal.BM25, 3.5).with(Signal.DENSE, 0.64).with(Signal.FUSED, 0.028)),
        candidate("c04", "", "Term frequency saturates in BM25, so repeating a word helps less and less.",
            Scores.of(Signal.BM25, 6.0)),
        candidate("c01", "How BM25 works", "It ranks documents with a saturating term frequency.",
            Scores.of(Signal.BM25, 8.0).with(Signal.FUSED, 0.030)),
        candidate("c06", "", "Nothing in common here.", Scores.empty()),
        candidate("c02", "", "Term frequency saturates in BM25, so repeating a word helps less and less.",
            Scores.of(Signal.BM25, 6.0)),
        candidate("c08", "Notes", "Documents are ranked by how often the query terms occur in them.",
            Scores.of(Signal.DENSE, 0.58).with(Signal.FUSED, 0.025)));
  }

  /** A candidate whose chunk {@code id} holds {@code text}, from its own document titled {@code title}. */
  protected static Candidate candidate(String id, String title, String text, Scores scores) {
    Chunk chunk = new Chunk(id, "doc-" + id, new Span(0, text.length()), text, "", 0, text.split("\\s+").length);
    DocInfo doc = new DocInfo("doc-" + id, "file:///" + id, title, Language.EN, Map.of());
    return new Candidate(chunk, doc, scores);
  }

  protected static List<String> ids(List<Candidate> candidates) {
    return candidates.stream().map(c -> c.chunk().id()).collect(Collectors.toList());
  }

  protected static double rerankScore(Candidate c) {
    assertThat(c.scores().get(Signal.RERANK)).as("rerank score of %s", c.chunk().id()).isPresent();
    return c.scores().get(Signal.RERANK).getAsDouble();
  }

  /** Each candidate's rerank score by chunk id. */
  protected static Map<String, Double> scoresById(List<Candidate> ranked) {
    Map<String, Double> out = new HashMap<>();
    for (Candidate c : ranked) out.put(c.chunk().id(), rerankScore(c));
    return out;
  }

  /**
   * Checks every clause of the contract that one call shows on {@code in} and returns the result:
   * each candidate back once, unchanged but for a finite rerank score, best first, ties by id.
   */
  protected final List<Candidate> checkContract(List<Candidate> in) throws IOException {
    List<Candidate> out = reranker().rerank(QUERY, in);
    assertThat(out).as("one result per candidate").hasSameSizeAs(in);
    assertThat(ids(out)).as("every candidate exactly once").containsExactlyInAnyOrderElementsOf(ids(in));
    Map<String, Candidate> given = new HashMap<>();
    for (Candidate c : in) given.put(c.chunk().id(), c);
    for (Candidate c : out) {
      Candidate original = given.get(c.chunk().id());
      String who = c.chunk().id();
      assertThat(c.chunk()).as("chunk of %s", who).isEqualTo(original.chunk());
      assertThat(c.doc()).as("document of %s", who).isEqualTo(original.doc());
      assertThat(Double.isFinite(rerankScore(c))).as("rerank score of %s is finite", who).isTrue();
      for (Signal s : Signal.values()) {
        if (s != Signal.RERANK) {
          assertThat(c.scores().get(s)).as("%s score of %s", s.key(), who).isEqualTo(original.scores().get(s));
        }
      }
    }
    for (int i = 1; i < out.size(); i++) {
      Candidate a = out.get(i - 1);
      Candidate b = out.get(i);
      double sa = rerankScore(a);
      double sb = rerankScore(b);
      assertThat(sa).as("%s before %s: best first", a.chunk().id(), b.chunk().id()).isGreaterThanOrEqualTo(sb);
      if (sa == sb) {
        assertThat(a.chunk().id()).as("%s and %s tie at %s: chunk-id order", a.chunk().id(), b.chunk().id(), sa)
            .isLessThan(b.chunk().id());
      }
    }
    return out;
  }

  @Test
  public void everyCandidateComesBackOnceScoredBestFirstWithItsOtherScoresKept() throws IOException {
    checkContract(candidates());
  }

  @Test
  public void candidatesThatDifferOnlyInTheirIdsTieAndComeBackInIdOrder() throws IOException {
    Scores same = Scores.of(Signal.BM25, 6.0).with(Signal.DENSE, 0.5).with(Signal.FUSED, 0.02);
    String text = "BM25 ranks documents by term frequency.";
    List<Candidate> twins = List.of(candidate("t3", "", text, same), candidate("t1", "", text, same),
        candidate("t2", "", text, same));
    List<Candidate> out = checkContract(twins);
    if (!scoresDependOnInputOrder()) {
      assertThat(out).extracting(RerankerContract::rerankScore).as("identical candidates score alike").containsOnly(
          rerankScore(out.get(0)));
      assertThat(ids(out)).containsExactly("t1", "t2", "t3");
    }
  }

  @Test
  public void aRerankScoreAlreadyOnTheInputIsReplacedNotRead() throws IOException {
    List<Candidate> fresh = candidates();
    List<Candidate> stale = new ArrayList<>();
    for (int i = 0; i < fresh.size(); i++) {
      Candidate c = fresh.get(i);
      stale.add(c.withScores(c.scores().with(Signal.RERANK, 1000.0 - 7 * i)));
    }
    Map<String, Double> expected = scoresById(reranker().rerank(QUERY, fresh));
    List<Candidate> out = reranker().rerank(QUERY, stale);
    assertThat(scoresById(out)).isEqualTo(expected);
    assertThat(ids(out)).isEqualTo(ids(reranker().rerank(QUERY, fresh)));
  }

  @Test
  public void theSameInputGivesTheSameOutput() throws IOException {
    List<Candidate> first = reranker().rerank(QUERY, candidates());
    assertThat(reranker().rerank(QUERY, candidates())).isEqualTo(first);
    assertThat(reranker().rerank(QUERY, new ArrayList<>(candidates()))).isEqualTo(first);
  }

  @Test
  public void emptyInEmptyOut() throws IOException {
    assertThat(reranker().rerank(QUERY, List.of())).isEmpty();
  }

  @Test
  public void oneCandidateComesBackScored() throws IOException {
    Candidate only = candidates().get(0);
    List<Candidate> out = checkContract(List.of(only));
    assertThat(ids(out)).containsExactly(only.chunk().id());
  }

  @Test
  public void theInputListIsNotModified() throws IOException {
    List<Candidate> in = new ArrayList<>(candidates());
    List<Candidate> before = List.copyOf(in);
    reranker().rerank(QUERY, in);
    assertThat(in).as("the input list after reranking").isEqualTo(before);
    for (int i = 0; i < in.size(); i++) assertThat(in.get(i)).isSameAs(before.get(i));
    // An unmodifiable list is accepted: a reranker that sorted its input in place would throw.
    checkContract(Collections.unmodifiableList(new ArrayList<>(candidates())));
  }

  @Test
  public void theOrderOfTheInputDoesNotChangeTheScores() throws IOException {
    assumeFalse(scoresDependOnInputOrder(), reranker().id() + " reads the input position by design");
    List<Candidate> in = candidates();
    List<Candidate> reference = checkContract(in);
    Map<String, Double> expected = scoresById(reference);
    List<List<Candidate>> orders = new ArrayList<>();
    List<Candidate> reversed = new ArrayList<>(in);
    Collections.reverse(reversed);
    orders.add(reversed);
    for (long seed = 1; seed <= 3; seed++) {
      List<Candidate> shuffled = new ArrayList<>(in);
      Collections.shuffle(shuffled, new Random(seed));
      orders.add(shuffled);
    }
    for (List<Candidate> order : orders) {
      List<Candidate> out = checkContract(order);
      assertThat(scoresById(out)).as("scores for input order %s", ids(order)).isEqualTo(expected);
      assertThat(ids(out)).as("result for input order %s", ids(order)).isEqualTo(ids(reference));
    }
  }

  @Test
  public void idIsNamedAndStable() throws IOException {
    String id = reranker().id();
    assertThat(id).isNotBlank();
    reranker().rerank(QUERY, candidates());
    assertThat(reranker().id()).isEqualTo(id);
    assertThat(reranker().id()).isEqualTo(id);
  }

  @Test
  public void concurrentCallersGetTheSameResult() throws Exception {
    List<Candidate> expected = reranker().rerank(QUERY, candidates());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Callable<List<Candidate>>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) calls.add(() -> reranker().rerank(QUERY, candidates()));
      for (Future<List<Candidate>> f : pool.invokeAll(calls)) assertThat(f.get()).isEqualTo(expected);
    } finally {
      pool.shutdownNow();
    }
  }
}
