package dev.ctxpack.bench.verify;

import dev.ctxpack.bench.compress.CompressData.Article;
import dev.ctxpack.bench.verify.QaUnits.Unit;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.EvidenceVerifier;
import dev.ctxpack.verify.QuoteCheck;
import dev.ctxpack.verify.Verification;
import dev.ctxpack.verify.VerifySource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The misquote evaluation ({@code eval quotes}): answers in the three quoting patterns of the
 * built-in templates ({@code quotes}, {@code quote-first}, {@code digest}) built from the citation
 * units of SQuAD 2.0 dev (en) and FaQuAD (pt) ({@link QaUnits}: a question's answer sentence and the
 * five paragraphs of its request, labelled S1..S5). Each unit's extract is its answer sentence (its
 * edge punctuation cut), quoted:
 *
 * <ul>
 *   <li><b>correct</b>, in four surface forms the check must accept: as is, lower-cased with
 *       typographic quote marks, with its white space doubled, and (12 words or more) with its middle
 *       left out behind an ellipsis;
 *   <li><b>one word changed</b>: a word of four letters or more, not the first, replaced by a word of
 *       another sentence of the sources that the sentence lacks;
 *   <li><b>another given source</b>: a sentence of another of the request's sources, cited as the gold one;
 *   <li><b>no source</b>: a sentence of the same article from a paragraph outside the request.
 * </ul>
 *
 * Nothing is fitted on this evaluation (the one threshold, {@code 0.5} of the extract's words
 * between an altered extract and one from no source, was set by its definition); it reports on
 * the REPORT half by default, as the other verification figures.
 */
@Command(name = "quotes", mixinStandardHelpOptions = true,
    description = "Evaluates the quoted-extract check (misquotes: a word changed, another source, no source) on SQuAD/FaQuAD.")
public final class QuoteEval implements Callable<Integer> {
  @CommandLine.Mixin QaUnitSets sets = new QaUnitSets();

  @Option(names = "--limit", defaultValue = "1000", description = "Units per language (sampled by the seed; 0 = all).")
  int limit;

  static final List<String> PATTERNS = List.of("quotes", "quote-first", "digest");

  public static void main(String[] args) {
    System.exit(run(args));
  }

  public static int run(String[] args) {
    return new CommandLine(new QuoteEval()).execute(args);
  }

  /** Tallies of one language: per pattern and kind, cases and the ones flagged (and rightly typed). */
  static final class Tally {
    final Map<String, int[]> cells = new LinkedHashMap<>(); // {cases, flagged, typed, closestOnGold}

    int[] cell(String pattern, String kind) {
      return cells.computeIfAbsent(pattern + "/" + kind, k -> new int[4]);
    }
  }

  @Override
  public Integer call() throws IOException {
    StringBuilder md = new StringBuilder();
    md.append("Command: `java -jar ctxpack-bench/target/ctxpack-bench.jar quotes --data ").append(sets.dataDir)
        .append(" --half ").append(sets.halfName).append(" --limit ").append(limit).append(" --seed ").append(sets.seed)
        .append("`\n\n");
    EvidenceVerifier verifier = EvidenceVerifier.lexical();
    for (QaUnitSets.Loaded loaded : sets.load(limit)) {
      String[] set = {loaded.key()};
      Language language = loaded.language();
      List<Article> articles = loaded.articles();
      QaUnits.Built built = loaded.built();
      List<Unit> units = loaded.units();
      Map<String, List<Span>> segments = QaUnits.segmentCache();
      Tally t = new Tally();
      List<String> failures = new ArrayList<>();
      for (Unit u : units) {
        Map<String, Case> cases = cases(u, articles, language, segments);
        for (String pattern : PATTERNS) {
          for (var e : cases.entrySet()) {
            String kind = e.getKey();
            Case c = e.getValue();
            Answer answer = Answer.parse(render(pattern, u.sentence(), c.extract, u.goldLabel(), language));
            Verification v;
            try {
              v = verifier.verify(null, u.sources(), answer);
            } catch (IOException ex) {
              throw new IllegalStateException(ex);
            }
            int[] cell = t.cell(pattern, kind);
            cell[0]++;
            // the extract's own quote (the claim may quote a title of its source too): the one whose
            // text is the extract, else the last
            String bare = c.extract.replaceAll("^\u201c|\u201d$", "");
            QuoteCheck q = v.quotes().stream().filter(x -> x.quote().text().equals(bare)).findFirst()
                .orElse(v.quotes().isEmpty() ? null : v.quotes().get(v.quotes().size() - 1));
            // a correct answer is flagged when any of its quotes is; a misquote when its extract is
            boolean flagged = kind.startsWith("correct") ? v.quotes().isEmpty() || !v.misquotes().isEmpty()
                : q == null || q.misquote();
            if (flagged) cell[1]++;
            boolean typed = q != null && q.status() == c.expected
                && (c.expectedSource == null || c.expectedSource.equals(q.source()));
            if (typed) cell[2]++;
            if (q != null && q.closest() != null && u.goldLabel().equals(q.closest().source())) cell[3]++;
            boolean wrong = kind.startsWith("correct") ? flagged : !flagged;
            if (wrong && failures.size() < 8) {
              failures.add(set[0] + " " + pattern + "/" + kind + " " + u.id() + ": " + (q == null ? "no quote found"
                  : q.status().wireName() + " " + q.source() + " " + String.format(Locale.ROOT, "%.2f", q.similarity()))
                  + " — \"" + c.extract + "\"");
            }
          }
        }
      }
      md.append("### ").append(set[0].equals("squad") ? "SQuAD 2.0 dev (en)" : "FaQuAD (pt)").append(", ")
          .append(sets.halfName).append(" half: ").append(units.size()).append(" units of ").append(built.units().size())
          .append("\n\n| pattern | kind | cases | flagged as misquote | typed right | closest span in the gold source |\n")
          .append("|---|---|---:|---:|---:|---:|\n");
      for (var e : t.cells.entrySet()) {
        int[] c = e.getValue();
        String[] pk = e.getKey().split("/");
        md.append("| ").append(pk[0]).append(" | ").append(pk[1]).append(" | ").append(c[0]).append(" | ")
            .append(pct(c[1], c[0])).append(" | ").append(pct(c[2], c[0])).append(" | ").append(pct(c[3], c[0])).append(" |\n");
      }
      md.append("\nFailures (first 8): ").append(failures.isEmpty() ? "none" : "").append("\n");
      for (String f : failures) md.append("- ").append(f).append("\n");
      md.append("\n");
    }
    System.out.print(md);
    sets.write(md.toString());
    return 0;
  }

  private static String pct(int k, int n) {
    return n == 0 ? "–" : String.format(Locale.ROOT, "%.1f %%", 100.0 * k / n);
  }

  /** One quoted extract and what the check should call it. */
  record Case(String extract, QuoteCheck.Status expected, String expectedSource) {}

  /** The answer in {@code pattern}: the claim is the answer sentence itself, the quote the extract. */
  static String render(String pattern, String sentence, String extract, String label, Language language) {
    String claim = sentence.strip();
    boolean typographic = extract.startsWith("\u201c");
    String quoted = typographic ? extract : "\"" + extract + "\"";
    return switch (pattern) {
      case "quotes" -> trimEnd(claim) + " [" + label + "] " + quoted + ".";
      case "quote-first" -> "[" + label + "] " + quoted + " \u2014 " + (language == Language.PT ? "ou seja, " : "that is, ")
          + lowerFirst(trimEnd(claim)) + " [" + label + "].";
      case "digest" -> (language == Language.PT ? "Trechos principais:\n- [" : "Key extracts:\n- [") + label + "] " + quoted
          + (language == Language.PT ? "\n\nResposta: " : "\n\nAnswer: ") + trimEnd(claim) + " [" + label + "].";
      default -> throw new IllegalArgumentException(pattern);
    };
  }

  static Map<String, Case> cases(Unit u, List<Article> articles, Language language, Map<String, List<Span>> segments) {
    Map<String, Case> out = new LinkedHashMap<>();
    String gold = u.goldLabel();
    // quote marks inside the extract nested as a writer nests them: double as single
    String extract = nest(trimEnd(u.sentence().strip()));
    out.put("correct", new Case(extract, QuoteCheck.Status.VERBATIM, gold));
    out.put("correct-typographic", new Case("\u201c" + lowerFirst(extract) + "\u201d", QuoteCheck.Status.VERBATIM, gold));
    out.put("correct-spacing", new Case(extract.replace(" ", "  "), QuoteCheck.Status.VERBATIM, gold));
    String[] words = extract.split(" ");
    if (words.length >= 12) {
      String cut = String.join(" ", java.util.Arrays.copyOfRange(words, 0, 4)) + " \u2026 "
          + String.join(" ", java.util.Arrays.copyOfRange(words, words.length - 4, words.length));
      out.put("correct-ellipsis", new Case(cut, QuoteCheck.Status.VERBATIM, gold));
    }
    Random r = VerifyData.random(42, u.id() + "/quote-word");
    String changed = changeOneWord(words, u, r);
    if (changed != null) out.put("one-word-changed", new Case(changed, QuoteCheck.Status.ALTERED, null));
    Random r2 = VerifyData.random(42, u.id() + "/quote-other");
    for (int tries = 0; tries < 20; tries++) {
      VerifySource other = u.sources().get(r2.nextInt(u.sources().size()));
      if (other.id().equals(gold)) continue;
      List<Span> spans = segments.computeIfAbsent(other.text(), x -> new dev.ctxpack.text.SentenceSegmenter().split(x, language));
      if (spans.isEmpty()) continue;
      String s = nest(trimEnd(spans.get(r2.nextInt(spans.size())).of(other.text()).strip()));
      if (s.split(" ").length < 5 || foldedIn(s, u.sources().get(u.gold()).text())) continue;
      out.put("another-source", new Case(s, QuoteCheck.Status.OTHER_SOURCE, other.id()));
      break;
    }
    String none = QaUnits.addedSentence(u, articles, language, VerifyData.random(42, u.id() + "/quote-none"), segments);
    if (none != null) {
      String s = nest(trimEnd(none.strip()));
      if (u.sources().stream().noneMatch(src -> foldedIn(s, src.text()))) {
        out.put("no-source", new Case(s, QuoteCheck.Status.NO_SOURCE, null));
      }
    }
    return out;
  }

  /** The extract with one word (4+ letters, not the first) replaced by a source word it lacks, or null. */
  static String changeOneWord(String[] words, Unit u, Random r) {
    List<Integer> slots = new ArrayList<>();
    for (int i = 1; i < words.length; i++) if (words[i].matches("\\p{L}{4,}")) slots.add(i);
    if (slots.isEmpty()) return null;
    List<String> pool = new ArrayList<>();
    String joined = String.join(" ", words).toLowerCase(Locale.ROOT);
    for (VerifySource s : u.sources()) {
      for (String w : s.text().split("[^\\p{L}]+")) {
        if (w.length() >= 4 && !joined.contains(w.toLowerCase(Locale.ROOT))) pool.add(w.toLowerCase(Locale.ROOT));
      }
    }
    if (pool.isEmpty()) return null;
    for (int tries = 0; tries < 10; tries++) {
      String[] copy = words.clone();
      copy[slots.get(r.nextInt(slots.size()))] = pool.get(r.nextInt(pool.size()));
      String s = String.join(" ", copy);
      if (u.sources().stream().noneMatch(src -> foldedIn(s, src.text()))) return s;
    }
    return null;
  }

  /** Whether {@code s} is in {@code text} up to case, white space and quote marks (the check's own folding, roughly). */
  static boolean foldedIn(String s, String text) {
    return fold(text).contains(fold(s));
  }

  private static String fold(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[\"'\u201c\u201d\u2018\u2019\u00ab\u00bb\u2039\u203a]", "")
        .replaceAll("\\s+", " ").strip();
  }

  /** Double quote marks inside an extract written as single ones, as a quotation nests them. */
  static String nest(String s) {
    return s.replace('"', '\'').replace('\u201c', '\u2018').replace('\u201d', '\u2019').replace('\u00ab', '\u2039')
        .replace('\u00bb', '\u203a');
  }

  static String trimEnd(String s) {
    return s.replaceAll("[\\s.!?;:]+$", "");
  }

  static String lowerFirst(String s) {
    return s.isEmpty() ? s : s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
  }
}
