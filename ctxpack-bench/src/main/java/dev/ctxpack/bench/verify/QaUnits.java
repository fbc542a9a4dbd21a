package dev.ctxpack.bench.verify;

import dev.ctxpack.bench.compress.CompressData;
import dev.ctxpack.bench.compress.CompressData.Article;
import dev.ctxpack.bench.compress.CompressData.Case;
import dev.ctxpack.bench.compress.CompressData.Paragraph;
import dev.ctxpack.bench.compress.CompressData.Qa;
import dev.ctxpack.bench.verify.Variants.Kind;
import dev.ctxpack.bench.verify.Variants.Variant;
import dev.ctxpack.compress.CompressInput;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.Claim;
import dev.ctxpack.verify.VerifySource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The units of the citation-error evaluation, built from a SQuAD-format set: a question whose
 * first answer lies inside one sentence of its paragraph ({@link SentenceSegmenter} spans in the
 * set's language), one unit per distinct sentence (the first question in file order keeps it). The
 * sources are the request the compression evaluation builds for the question ({@link
 * CompressData#construct}: the gold paragraph and up to four other paragraphs of the article,
 * chosen and shuffled by a seed from the question id), labelled {@code S1..Sn} in that order.
 */
public final class QaUnits {
  private static final SentenceSegmenter SEGMENTER = new SentenceSegmenter();

  private QaUnits() {}

  /**
   * One unit: the question, its answer sentence ({@code answerStart..answerEnd} are the first
   * answer's offsets inside {@code sentence}), the gold paragraph, the labelled sources and which of
   * them is the gold one ({@code gold}); {@code sourceParagraphs} are the sources' paragraph indices
   * in the article.
   */
  public record Unit(String id, String question, String article, int articleIndex, int paragraph, String paragraphText,
      int sentenceIndex, String sentence, int answerStart, int answerEnd, List<VerifySource> sources,
      List<Integer> sourceParagraphs, int gold) {
    public Unit {
      sources = List.copyOf(sources);
      sourceParagraphs = List.copyOf(sourceParagraphs);
    }

    public String goldLabel() {
      return sources.get(gold).id();
    }

    public List<String> labels() {
      return sources.stream().map(VerifySource::id).toList();
    }
  }

  /** Where a question's first answer lies: the sentence's span in the paragraph and the answer's span. */
  public record Located(int sentenceIndex, Span sentence, int answerStart, int answerEnd) {}

  /** The units and how many questions each rule left out. */
  public record Built(List<Unit> units, Map<String, Integer> skipped, int questions) {}

  /**
   * The sentence of {@code paragraph} that holds the first answer of {@code qa} (located by {@link
   * VerifyData#locateAnswer}), or {@code null} when the answer is not in the paragraph or crosses a
   * sentence boundary.
   */
  public static Located locate(String paragraph, Qa qa, Integer givenStart, Language language) {
    int start = VerifyData.locateAnswer(paragraph, qa, givenStart);
    if (start < 0) return null;
    int end = start + qa.answers().get(0).length();
    List<Span> spans = SEGMENTER.split(paragraph, language);
    for (int i = 0; i < spans.size(); i++) {
      Span s = spans.get(i);
      if (start >= s.start() && end <= s.end()) return new Located(i, s, start, end);
    }
    return null;
  }

  /**
   * Every unit of {@code articles} (one half of the set, in file order): answerable questions only.
   * A unit is kept only when its correct variant parses ({@link Answer#parse}) into exactly one
   * claim citing the gold label.
   */
  public static Built build(List<Article> articles, Map<String, Integer> answerStarts, Language language, long seed) {
    List<Unit> out = new ArrayList<>();
    Map<String, Integer> skipped = new LinkedHashMap<>();
    skipped.put("answer not in its paragraph", 0);
    skipped.put("answer crosses a sentence boundary", 0);
    skipped.put("sentence already taken by an earlier question", 0);
    skipped.put("correct answer does not parse into one claim", 0);
    int questions = 0;
    for (int a = 0; a < articles.size(); a++) {
      Article article = articles.get(a);
      for (int p = 0; p < article.paragraphs().size(); p++) {
        Paragraph para = article.paragraphs().get(p);
        Set<Integer> taken = new HashSet<>();
        for (Qa qa : para.questions()) {
          if (qa.impossible() || qa.answers().isEmpty()) continue;
          questions++;
          int start = VerifyData.locateAnswer(para.text(), qa, answerStarts.get(qa.id()));
          if (start < 0) {
            skipped.merge("answer not in its paragraph", 1, Integer::sum);
            continue;
          }
          Located at = locate(para.text(), qa, answerStarts.get(qa.id()), language);
          if (at == null) {
            skipped.merge("answer crosses a sentence boundary", 1, Integer::sum);
            continue;
          }
          if (!taken.add(at.sentenceIndex())) {
            skipped.merge("sentence already taken by an earlier question", 1, Integer::sum);
            continue;
          }
          Unit u = unit(article, a, p, qa, at, seed);
          Answer parsed = Answer.parse(Variants.cite(u.sentence(), u.goldLabel()));
          if (parsed.claims().size() != 1 || !parsed.claims().get(0).citations().equals(List.of(u.goldLabel()))) {
            skipped.merge("correct answer does not parse into one claim", 1, Integer::sum);
            continue;
          }
          out.add(u);
        }
      }
    }
    return new Built(out, skipped, questions);
  }

  static Unit unit(Article article, int articleIndex, int p, Qa qa, Located at, long seed) {
    Case c = CompressData.construct(article, p, qa, seed);
    List<VerifySource> sources = new ArrayList<>();
    List<Integer> paragraphs = new ArrayList<>();
    for (int i = 0; i < c.inputs().size(); i++) {
      CompressInput in = c.inputs().get(i);
      sources.add(new VerifySource("S" + (i + 1), in.parts().get(0).text()));
      paragraphs.add(Integer.parseInt(in.id().substring(1)));
    }
    String text = article.paragraphs().get(p).text();
    String sentence = at.sentence().of(text);
    return new Unit(qa.id(), qa.question(), article.title(), articleIndex, p, text, at.sentenceIndex(), sentence,
        at.answerStart() - at.sentence().start(), at.answerEnd() - at.sentence().start(), sources, paragraphs, c.goldInput());
  }

  /**
   * The sentence the added-clause variant appends: drawn with {@code random} from the sentences of
   * the unit's article whose paragraphs are not among its sources, or, when there are none, from the
   * next article (in {@code articles} order, wrapping round) that has one. Eligible sentences have 5
   * to 40 words, open with a capital letter, end with {@code .} or {@code !}, hold no {@code [} or
   * line break, and are in none of the unit's sources.
   */
  public static String addedSentence(Unit u, List<Article> articles, Language language, Random random,
      Map<String, List<Span>> segmentCache) {
    for (int k = 0; k < articles.size(); k++) {
      int a = (u.articleIndex() + k) % articles.size();
      Article article = articles.get(a);
      List<String> eligible = new ArrayList<>();
      for (int p = 0; p < article.paragraphs().size(); p++) {
        if (k == 0 && u.sourceParagraphs().contains(p)) continue;
        String text = article.paragraphs().get(p).text();
        for (Span s : segmentCache.computeIfAbsent(text, t -> SEGMENTER.split(t, language))) {
          String sentence = s.of(text);
          if (eligible(sentence) && u.sources().stream().noneMatch(src -> src.text().contains(sentence))) eligible.add(sentence);
        }
      }
      if (!eligible.isEmpty()) return eligible.get(random.nextInt(eligible.size()));
    }
    return null;
  }

  static boolean eligible(String sentence) {
    if (sentence.indexOf('[') >= 0 || sentence.indexOf('\n') >= 0) return false;
    if (!Character.isUpperCase(sentence.charAt(0))) return false;
    char last = sentence.charAt(sentence.length() - 1);
    if (last != '.' && last != '!') return false;
    int words = sentence.strip().split("\\s+").length;
    return words >= 5 && words <= 40;
  }

  /**
   * The variants of a unit, in {@link Kind} order; kinds that do not apply are left out. Each draws
   * from its own {@link Random} seeded by {@code seed}, the question id and the kind, so adding a kind
   * changes no other. {@code added} is the sentence for the added-clause variant ({@code null}: none).
   */
  public static List<Variant> variants(Unit u, String added, Language language, long seed) {
    String gold = u.goldLabel();
    List<Variant> out = new ArrayList<>();
    out.add(new Variant(Kind.CORRECT, Variants.cite(u.sentence(), gold), gold, ""));
    String clause = Variants.clauseWithAnswer(u.sentence(), u.answerStart(), u.answerEnd());
    if (clause != null) out.add(new Variant(Kind.CORRECT_CLAUSE, Variants.cite(clause, gold), gold, clause));
    // another source that does not hold the sentence itself
    List<String> others = new ArrayList<>();
    for (VerifySource s : u.sources()) if (!s.id().equals(gold) && !s.text().contains(u.sentence())) others.add(s.id());
    others.add(0, gold);
    String wrong = Variants.otherLabel(others, gold, random(seed, u, Kind.WRONG_SOURCE));
    if (wrong != null) out.add(new Variant(Kind.WRONG_SOURCE, Variants.cite(u.sentence(), wrong), wrong, "cites " + wrong + " for " + gold));
    String invented = Variants.inventedLabel(u.sources().size(), random(seed, u, Kind.INVENTED_ID));
    out.add(new Variant(Kind.INVENTED_ID, Variants.cite(u.sentence(), invented), invented, "cites " + invented));
    Variants.Change swap = Variants.swapNumber(u.sentence(), u.answerStart(), u.answerEnd(), u.paragraphText(),
        random(seed, u, Kind.SWAPPED_NUMBER));
    if (swap != null) out.add(new Variant(Kind.SWAPPED_NUMBER, Variants.cite(swap.text(), gold), gold, swap.detail()));
    String negated = Variants.negate(u.sentence(), language);
    if (negated != null) out.add(new Variant(Kind.NEGATION, Variants.cite(negated, gold), gold, ""));
    if (added != null) out.add(new Variant(Kind.ADDED_CLAUSE, Variants.cite(Variants.addClause(u.sentence(), added, language), gold), gold, added));
    return out;
  }

  static Random random(long seed, Unit u, Kind kind) {
    return VerifyData.random(seed, u.id() + "/" + kind.label);
  }

  /** The one claim {@code text} parses into citing exactly {@code cited}, or {@code null}. */
  public static Claim onlyClaim(Answer parsed, String cited) {
    if (parsed.claims().size() != 1) return null;
    Claim c = parsed.claims().get(0);
    return c.citations().equals(List.of(cited)) ? c : null;
  }

  /** A cache of sentence spans per paragraph text, for {@link #addedSentence}. */
  public static Map<String, List<Span>> segmentCache() {
    return new HashMap<>();
  }
}
