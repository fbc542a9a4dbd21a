package dev.ctxpack.bench.jmh;

import dev.ctxpack.bench.RunSupport;
import dev.ctxpack.bench.compress.CompressData;
import dev.ctxpack.bench.compress.CompressData.Article;
import dev.ctxpack.bench.compress.CompressData.Paragraph;
import dev.ctxpack.bench.compress.CompressData.Qa;
import dev.ctxpack.bench.verify.QaUnits;
import dev.ctxpack.bench.verify.Variants;
import dev.ctxpack.bench.verify.VerifyEval;
import dev.ctxpack.model.Language;
import dev.ctxpack.onnx.MiniLmEmbedder;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.EvidenceVerifier;
import dev.ctxpack.verify.ClaimVerdict;
import dev.ctxpack.verify.Verdict;
import dev.ctxpack.verify.Verification;
import dev.ctxpack.verify.Verifier;
import dev.ctxpack.verify.VerifySource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of verifying one answer, single-threaded: a {@value #CLAIMS}-claim answer against
 * {@value #SOURCES} sources with ctxpack's verifier ({@link VerifyEval#ctxpackVerifier}, as {@code
 * ctxpack verify} builds it without a judge).
 *
 * <p>The setup builds {@value #REQUESTS} requests from SQuAD 2.0 dev (the data folder is {@value
 * #DATA_PROPERTY}, else {@code $CTXPACK_DATA}, else {@code ../shared/data} from the project root):
 * for each of the first articles in file order whose first {@value #SOURCES} paragraphs each have an
 * answerable question whose first answer lies inside one sentence, the sources are those paragraphs
 * ({@code S1..S10}, in article order) and the answer is, for each paragraph, that answer sentence
 * verbatim citing its paragraph ({@code "… [S3]."}), the ten joined by spaces and parsed with {@link
 * Answer#parse} once in the setup; the query is the first paragraph's question (so the abstention
 * check runs too). Each call verifies the next request. The setup prints the requests' size and the
 * verdicts they get.
 *
 * <ul>
 *   <li>{@code mode=lexical}: the verifier without an embedder;
 *   <li>{@code mode=minilm}: with MiniLM (all-MiniLM-L6-v2, int8) run on the calling thread ({@code
 *       new MiniLmEmbedder(Runnable::run)}, one call uses one core) and the verifier's vector cache
 *       off ({@code vectorCache(0)}): every call embeds whatever it needs.
 *   <li>{@code mode=minilm-cached}: the same with the verifier's vector cache at its default size,
 *       warmed by the setup's pass over the requests: the cost of verifying again against sources
 *       whose vectors are known (a regeneration loop over one package). The verifier embeds a claim
 *       only when the lexical evidence leaves it partial or unsupported, and the sources only then.
 * </ul>
 *
 * Mode SampleTime in milliseconds: JMH reports p50, p90, p99 and p99.9.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 4)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Threads(1)
public class VerifyBenchmark {
  static final int REQUESTS = 8;
  static final int SOURCES = 10;
  static final int CLAIMS = 10;
  static final String DATA_PROPERTY = "ctxpack.bench.data";

  /** The requests and the verifier under test. */
  @State(Scope.Benchmark)
  public static class Requests {
    /** {@code lexical} (no embedder) or {@code minilm}. */
    @Param({"lexical", "minilm", "minilm-cached"})
    public String mode;

    /**
     * {@code verbatim}: each claim is its paragraph's answer sentence verbatim (settled by lexical
     * evidence); {@code mixed}: every other claim has a sentence of a paragraph outside the sources
     * appended as a clause (", and …"), which the lexical evidence leaves partial, so with MiniLM the
     * verifier embeds those claims and the sources' sentences.
     */
    @Param({"verbatim", "mixed"})
    public String answers;

    private List<Request> requests;
    private Verifier verifier;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      verifier = switch (mode) {
        case "lexical" -> VerifyEval.ctxpackVerifier(null);
        // cold: no vector kept between calls, so every call embeds what it needs
        case "minilm" -> EvidenceVerifier.builder().embedder(new MiniLmEmbedder(Runnable::run)).vectorCache(0).build();
        // the verifier's own vector cache (default size), warmed by the setup's first pass
        case "minilm-cached" -> VerifyEval.ctxpackVerifier(new MiniLmEmbedder(Runnable::run));
        default -> throw new IllegalArgumentException("mode must be lexical, minilm or minilm-cached, was " + mode);
      };
      requests = requests(dataDir(), answers.equals("mixed"));
      describe();
    }

    Verification verifyNext() throws IOException {
      Request r = requests.get(next);
      next = (next + 1) % requests.size();
      return verifier.verify(r.query(), r.sources(), r.answer());
    }

    /** Untimed: the requests' size and the verdicts the verifier gives them. */
    private void describe() throws IOException {
      long chars = 0;
      long answerChars = 0;
      EnumMap<Verdict, Integer> verdicts = new EnumMap<>(Verdict.class);
      int abstentionRight = 0;
      for (Request r : requests) {
        for (VerifySource s : r.sources()) chars += s.text().length();
        answerChars += r.answer().text().length();
        Verification v = verifier.verify(r.query(), r.sources(), r.answer());
        for (ClaimVerdict c : v.claims()) verdicts.merge(c.verdict(), 1, Integer::sum);
        if (Boolean.TRUE.equals(v.abstentionCorrect())) abstentionRight++;
      }
      System.err.printf("[jmh] mode=%s (%s): %d requests of %d sources (%.0f chars of sources, %.0f of answer per request)"
          + " and %d claims; verdicts %s; abstention judged right (not abstaining) in %d of %d%n", mode,
          verifier.getClass().getSimpleName(), requests.size(), SOURCES, chars / (double) requests.size(),
          answerChars / (double) requests.size(), CLAIMS, verdicts, abstentionRight, requests.size());
    }
  }

  @Benchmark
  public Verification verify(Requests r) throws IOException {
    return r.verifyNext();
  }

  /** One request: the query, the sources and the parsed answer. */
  record Request(String query, List<VerifySource> sources, Answer answer) {}

  static Path dataDir() {
    String p = System.getProperty(DATA_PROPERTY);
    return p != null && !p.isBlank() ? Path.of(p) : RunSupport.defaultDataDir();
  }

  /** The first {@value #REQUESTS} articles of SQuAD 2.0 dev that give a full request (see the class comment). */
  static List<Request> requests(Path data) throws IOException {
    return requests(data, false);
  }

  static List<Request> requests(Path data, boolean mixed) throws IOException {
    Path file = data.resolve("squad_v2_en/dev-v2.0.json");
    if (!Files.isRegularFile(file)) {
      throw new IOException("no SQuAD 2.0 dev at " + file + ": run from the project root or pass -D" + DATA_PROPERTY + "=DIR");
    }
    List<Request> out = new ArrayList<>();
    List<Article> articles = CompressData.loadSquad(file);
    // Sentences from outside any request's sources: the first of each paragraph past the tenth.
    List<String> outside = new ArrayList<>();
    for (Article a : articles) {
      for (int p = SOURCES; p < a.paragraphs().size(); p++) {
        String t = a.paragraphs().get(p).text();
        List<dev.ctxpack.model.Span> ss = new dev.ctxpack.text.SentenceSegmenter().split(t, Language.EN);
        if (!ss.isEmpty()) outside.add(ss.get(0).of(t));
      }
    }
    for (Article a : articles) {
      if (out.size() == REQUESTS) break;
      if (a.paragraphs().size() < SOURCES) continue;
      List<VerifySource> sources = new ArrayList<>();
      StringBuilder answer = new StringBuilder();
      String query = null;
      for (int p = 0; p < SOURCES; p++) {
        Paragraph para = a.paragraphs().get(p);
        String label = "S" + (p + 1);
        sources.add(new VerifySource(label, para.text()));
        for (Qa qa : para.questions()) {
          if (qa.impossible() || qa.answers().isEmpty()) continue;
          QaUnits.Located at = QaUnits.locate(para.text(), qa, null, Language.EN);
          if (at == null) continue;
          if (answer.length() > 0) answer.append(' ');
          String sentence = at.sentence().of(para.text());
          if (mixed && p % 2 == 1) {
            sentence = Variants.addClause(sentence, outside.get((out.size() * SOURCES + p) % outside.size()), Language.EN);
          }
          answer.append(Variants.cite(sentence, label));
          if (query == null) query = qa.question();
          break;
        }
      }
      Answer parsed = Answer.parse(answer.toString());
      if (parsed.claims().size() != CLAIMS) continue;
      boolean each = true;
      for (int i = 0; i < CLAIMS; i++) each &= parsed.claims().get(i).citations().equals(List.of("S" + (i + 1)));
      if (each) out.add(new Request(query, List.copyOf(sources), parsed));
    }
    if (out.size() < REQUESTS) throw new IllegalStateException("only " + out.size() + " SQuAD articles give a " + CLAIMS + "-claim request");
    return List.copyOf(out);
  }
}
