package dev.ctxpack.compress;

import dev.ctxpack.model.Deadline;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.text.Terms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The features {@link FeatureSentenceScorer} weighs, per sentence of a request. Lexical: BM25 of
 * the sentence with the request's sentences as the collection, query-term coverage weighted by
 * IDF, query bigrams. Semantic: cosine of the query and sentence vectors, absolute and relative to
 * the best of the request, and whether there was one. Context: the neighbouring sentences'
 * coverage, the passage's coverage and its rank by it, the input rank, the position in the
 * passage. Form: length, whether the sentence holds what the question asks for (a year or date
 * for "when"/"quando", a number for "how many"/"quantos", a name for "who"/"quem"...).
 */
public final class SentenceFeatures {
  public static final List<String> NAMES = List.of(
      "bm25_rel", "bm25_log", "cover_idf", "cover_rel", "bigram", "dense", "dense_rel", "dense_present",
      "neighbour_cover", "window_cover", "passage_cover", "passage_rr", "input_rr", "first", "position",
      "length_log", "answer_type", "answer_type_asked", "novel_log", "run", "proximity", "bm25_rr", "dense_rr",
      "cover_x_dense", "type_x_cover", "type_x_dense", "passage_x_cover", "window_x_dense", "dense_window",
      "dense_passage", "cover_stem", "tok_max", "tok_max_rel", "tok_idf", "tok_idf_rel");

  static final int BM25_REL = 0;
  static final int BM25_LOG = 1;
  static final int COVER_IDF = 2;
  static final int COVER_REL = 3;
  static final int BIGRAM = 4;
  static final int DENSE = 5;
  static final int DENSE_REL = 6;
  static final int DENSE_PRESENT = 7;
  static final int NEIGHBOUR_COVER = 8;
  static final int WINDOW_COVER = 9;
  static final int PASSAGE_COVER = 10;
  static final int PASSAGE_RR = 11;
  static final int INPUT_RR = 12;
  static final int FIRST = 13;
  static final int POSITION = 14;
  static final int LENGTH_LOG = 15;
  static final int ANSWER_TYPE = 16;
  static final int ANSWER_TYPE_ASKED = 17;
  static final int NOVEL_LOG = 18;
  static final int RUN = 19;
  static final int PROXIMITY = 20;
  static final int BM25_RR = 21;
  static final int DENSE_RR = 22;
  static final int COVER_X_DENSE = 23;
  static final int TYPE_X_COVER = 24;
  static final int TYPE_X_DENSE = 25;
  static final int PASSAGE_X_COVER = 26;
  static final int WINDOW_X_DENSE = 27;
  static final int DENSE_WINDOW = 28;
  static final int DENSE_PASSAGE = 29;
  static final int COVER_STEM = 30;
  static final int TOK_MAX = 31;
  static final int TOK_MAX_REL = 32;
  static final int TOK_IDF = 33;
  static final int TOK_IDF_REL = 34;
  /** Query and sentence terms sharing this many leading characters count as one stem. */
  static final int STEM = 5;

  private static final double K1 = 1.2;
  private static final double B = 0.75;

  private SentenceFeatures() {}

  /** What the question asks for, by its wh-word, in Portuguese and English. */
  enum AnswerType { NONE, TIME, NUMBER, PERSON, PLACE }

  private static final Pattern TIME_Q = Pattern.compile(
      "(?iu)\\b(when|what year|which year|what date|what century|quando|em que ano|que ano|qual ano|em que data|que data|em que s[ée]culo)\\b");
  private static final Pattern NUMBER_Q = Pattern.compile(
      "(?iu)\\b(how many|how much|how long|how old|how far|how big|how large|what percentage|what percent|quantos|quantas|quanto|quanta"
          + "|qual (o|a) (n[úu]mero|quantidade|valor|porcentagem|percentual|total|dura[çc][ãa]o|prazo)|qual o tamanho)\\b");
  private static final Pattern PERSON_Q = Pattern.compile("(?iu)^\\W*(who|whom|whose|quem)\\b|\\b(who|whom|whose|quem)\\b");
  private static final Pattern PLACE_Q = Pattern.compile("(?iu)\\b(where|onde|aonde|em que (cidade|pa[íi]s|estado|local|lugar))\\b");
  private static final Pattern YEAR = Pattern.compile("\\b(1[0-9]{3}|20[0-9]{2})s?\\b");
  private static final Pattern MONTH = Pattern.compile(
      "(?iu)\\b(january|february|march|april|may|june|july|august|september|october|november|december|century"
          + "|janeiro|fevereiro|março|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro|século)\\b");
  private static final Pattern NUMBER = Pattern.compile(
      "(?iu)\\d|\\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand"
          + "|million|billion|dozen|half|um|uma|dois|duas|três|quatro|cinco|seis|sete|oito|nove|dez|vinte|trinta|cem|cento|mil"
          + "|milhão|milhões|bilhão|bilhões|metade)\\b");
  private static final Pattern NAME = Pattern.compile("(?<=[\\p{L}\\p{N},;:)] )\\p{Lu}\\p{Ll}+");

  static AnswerType answerType(String query) {
    if (TIME_Q.matcher(query).find()) return AnswerType.TIME;
    if (NUMBER_Q.matcher(query).find()) return AnswerType.NUMBER;
    if (PERSON_Q.matcher(query).find()) return AnswerType.PERSON;
    if (PLACE_Q.matcher(query).find()) return AnswerType.PLACE;
    return AnswerType.NONE;
  }

  /** Query terms: distinct folded terms that are not stop words, in query order. */
  static List<String> queryTerms(String query) {
    Set<String> seen = new java.util.LinkedHashSet<>();
    Terms.scan(query, (t, at) -> {
      String w = t.toString();
      if (!Terms.STOP_WORDS.contains(w)) seen.add(w);
    });
    return new ArrayList<>(seen);
  }

  /**
   * The feature rows of {@code sentences}; {@code queryVector} and {@code vectors} may be null (or
   * hold null entries) when there are no vectors.
   */
  public static double[][] compute(String query, List<CompressInput> inputs, List<Sentence> sentences,
      float[] queryVector, float[][] vectors) {
    return compute(query, inputs, sentences, queryVector, vectors, null);
  }

  /**
   * The feature rows with the token-match features from {@code tokens} ({@code null}: absent, 0),
   * each also relative to the request's best ({@link SentenceTokens}).
   */
  public static double[][] compute(String query, List<CompressInput> inputs, List<Sentence> sentences,
      float[] queryVector, float[][] vectors, SentenceTokens tokens) {
    double[][] x = lexicalAndDense(query, inputs, sentences, queryVector, vectors);
    if (tokens == null || x.length == 0) return x;
    double[][] m = tokens.match();
    double bestMax = Double.NEGATIVE_INFINITY;
    double bestIdf = Double.NEGATIVE_INFINITY;
    for (double[] r : m) {
      bestMax = Math.max(bestMax, r[0]);
      bestIdf = Math.max(bestIdf, r[1]);
    }
    for (int i = 0; i < x.length; i++) {
      x[i][TOK_MAX] = m[i][0];
      x[i][TOK_MAX_REL] = m[i][0] - bestMax;
      x[i][TOK_IDF] = m[i][1];
      x[i][TOK_IDF_REL] = m[i][1] - bestIdf;
    }
    return x;
  }

  private static double[][] lexicalAndDense(String query, List<CompressInput> inputs, List<Sentence> sentences,
      float[] queryVector, float[][] vectors) {
    int n = sentences.size();
    int d = NAMES.size();
    double[][] x = new double[n][d];
    if (n == 0) return x;
    List<String> q = queryTerms(query);
    int qn = q.size();
    Terms.Table table = new Terms.Table(q);
    // Per sentence: term frequencies of the query terms, length in terms, and the sequence of
    // query-term indices met (for bigrams).
    int[][] tf = new int[n][qn];
    boolean[][] stemHit = new boolean[n][qn];
    // Stems of the longer query terms: "renovação" and "renovar", "located" and "location".
    List<String> stemKeys = new ArrayList<>();
    List<Integer> stemTerms = new ArrayList<>();
    for (int k = 0; k < qn; k++) {
      if (q.get(k).length() > STEM && !stemKeys.contains(q.get(k).substring(0, STEM))) {
        stemKeys.add(q.get(k).substring(0, STEM));
        stemTerms.add(k);
      }
    }
    Terms.Table stems = new Terms.Table(stemKeys);
    int[] len = new int[n];
    int[] novel = new int[n];
    List<int[]> seqs = new ArrayList<>(n);
    int[] df = new int[qn];
    int[][] order = {new int[64]}; // the sentence's sequence, reused from one sentence to the next
    for (int i = 0; i < n; i++) {
      if ((i & 63) == 0) Deadline.check();
      int[] row = tf[i];
      int[] count = {0};
      int[] seqLength = {0};
      int[] fresh = {0};
      boolean[] stemRow = stemHit[i];
      Terms.scan(sentences.get(i).text(), (t, at) -> {
        count[0]++;
        int k = table.get(t);
        if (k >= 0) row[k]++;
        if (k < 0 && !stemKeys.isEmpty() && t.length() > STEM) {
          int sk = stems.get(t, 0, STEM);
          if (sk >= 0) stemRow[stemTerms.get(sk)] = true;
        }
        // Stop words do not break a bigram: "capital of France" holds the pair (capital, france).
        if (k >= 0 || !Terms.STOP_TABLE.contains(t)) {
          if (seqLength[0] == order[0].length) order[0] = java.util.Arrays.copyOf(order[0], 2 * seqLength[0]);
          order[0][seqLength[0]++] = k;
          if (k < 0) fresh[0]++;
        }
      });
      novel[i] = fresh[0];
      len[i] = count[0];
      seqs.add(java.util.Arrays.copyOf(order[0], seqLength[0]));
      for (int k = 0; k < qn; k++) if (row[k] > 0) df[k]++;
    }
    double[] idf = new double[qn];
    double idfSum = 0;
    for (int k = 0; k < qn; k++) {
      idf[k] = Math.log(1 + (n - df[k] + 0.5) / (df[k] + 0.5));
      idfSum += idf[k];
    }
    double avgLen = 0;
    for (int l : len) avgLen += l;
    avgLen = Math.max(1, avgLen / n);
    Set<Long> bigrams = new HashSet<>();
    for (int k = 0; k + 1 < qn; k++) bigrams.add(pair(k, k + 1));

    double[] bm25 = new double[n];
    double[] cover = new double[n];
    double maxBm25 = 0;
    double maxCover = 0;
    for (int i = 0; i < n; i++) {
      double s = 0;
      double c = 0;
      for (int k = 0; k < qn; k++) {
        int f = tf[i][k];
        if (f == 0) continue;
        s += idf[k] * f * (K1 + 1) / (f + K1 * (1 - B + B * len[i] / avgLen));
        c += idf[k];
      }
      bm25[i] = s;
      cover[i] = idfSum > 0 ? c / idfSum : 0;
      maxBm25 = Math.max(maxBm25, s);
      maxCover = Math.max(maxCover, cover[i]);
    }

    // Passage coverage and rank by it.
    int inputsN = inputs.size();
    double[] passageCover = new double[inputsN];
    boolean[][] passageHas = new boolean[inputsN][qn];
    for (int i = 0; i < n; i++) {
      int in = sentences.get(i).input();
      for (int k = 0; k < qn; k++) if (tf[i][k] > 0) passageHas[in][k] = true;
    }
    for (int p = 0; p < inputsN; p++) {
      double c = 0;
      for (int k = 0; k < qn; k++) if (passageHas[p][k]) c += idf[k];
      passageCover[p] = idfSum > 0 ? c / idfSum : 0;
    }
    double[] passageRr = new double[inputsN];
    for (int p = 0; p < inputsN; p++) {
      int better = 0;
      for (int r = 0; r < inputsN; r++) if (passageCover[r] > passageCover[p]) better++;
      passageRr[p] = 1.0 / (1 + better);
    }

    double maxDense = Double.NEGATIVE_INFINITY;
    double[] dense = new double[n];
    boolean anyDense = false;
    for (int i = 0; i < n; i++) {
      float[] v = vectors == null ? null : vectors[i];
      if (queryVector == null || v == null) {
        dense[i] = Double.NaN;
        continue;
      }
      dense[i] = Embedder.dot(queryVector, v);
      maxDense = Math.max(maxDense, dense[i]);
      anyDense = true;
    }

    double[] bm25Rr = reciprocalRanks(bm25);
    double[] denseRr = anyDense ? reciprocalRanks(dense) : new double[n];
    double[] passageDense = new double[inputsN];
    double[] sum = anyDense ? new double[queryVector.length] : null; // cosine's scratch, reused
    if (anyDense) {
      int from = 0;
      for (int i = 1; i <= n; i++) {
        if (i == n || sentences.get(i).input() != sentences.get(from).input()) {
          passageDense[sentences.get(from).input()] = cosine(queryVector, vectors, from, i - 1, sum);
          from = i;
        }
      }
    }
    AnswerType type = answerType(query);
    Set<String> queryFolded = new HashSet<>(q);
    Map<Integer, Integer> partSizes = new HashMap<>();
    for (Sentence s : sentences) partSizes.merge(s.input() * 10_007 + s.part(), 1, Integer::sum);

    for (int i = 0; i < n; i++) {
      Sentence s = sentences.get(i);
      double[] r = x[i];
      r[BM25_REL] = maxBm25 > 0 ? bm25[i] / maxBm25 : 0;
      r[BM25_LOG] = Math.log1p(bm25[i]);
      r[COVER_IDF] = cover[i];
      r[COVER_REL] = maxCover > 0 ? cover[i] / maxCover : 0;
      int hits = 0;
      int[] seq = seqs.get(i);
      for (int j = 0; j + 1 < seq.length; j++) {
        if (seq[j] >= 0 && seq[j + 1] >= 0 && bigrams.contains(pair(Math.min(seq[j], seq[j + 1]), Math.max(seq[j], seq[j + 1])))) hits++;
      }
      r[BIGRAM] = bigrams.isEmpty() ? 0 : Math.min(1.0, hits / (double) bigrams.size());
      if (!Double.isNaN(dense[i])) {
        r[DENSE] = dense[i];
        r[DENSE_REL] = dense[i] - maxDense;
        r[DENSE_PRESENT] = 1;
      }
      boolean hasPrev = i > 0 && samePart(sentences.get(i - 1), s);
      boolean hasNext = i + 1 < n && samePart(sentences.get(i + 1), s);
      double nb = 0;
      if (hasPrev) nb = Math.max(nb, cover[i - 1]);
      if (hasNext) nb = Math.max(nb, cover[i + 1]);
      r[NEIGHBOUR_COVER] = nb;
      double wc = 0;
      for (int k = 0; k < qn; k++) {
        if (tf[i][k] > 0 || (hasPrev && tf[i - 1][k] > 0) || (hasNext && tf[i + 1][k] > 0)) wc += idf[k];
      }
      r[WINDOW_COVER] = idfSum > 0 ? wc / idfSum : 0;
      r[PASSAGE_COVER] = passageCover[s.input()];
      r[PASSAGE_RR] = passageRr[s.input()];
      r[INPUT_RR] = 1.0 / (1 + s.input());
      r[FIRST] = s.index() == 0 ? 1 : 0;
      int size = partSizes.get(s.input() * 10_007 + s.part());
      r[POSITION] = size <= 1 ? 0 : s.index() / (double) (size - 1);
      r[LENGTH_LOG] = Math.log1p(len[i]);
      double stemCover = 0;
      for (int k = 0; k < qn; k++) if (tf[i][k] > 0 || stemHit[i][k]) stemCover += idf[k];
      r[COVER_STEM] = idfSum > 0 ? stemCover / idfSum : 0;
      r[NOVEL_LOG] = Math.log1p(novel[i]);
      r[BM25_RR] = bm25[i] > 0 ? bm25Rr[i] : 0;
      r[DENSE_RR] = Double.isNaN(dense[i]) ? 0 : denseRr[i];
      // The longest run of consecutive query terms in the sentence (stop words skipped), over the
      // query's length; and how close together the matched terms sit.
      int run = 0;
      int cur = 0;
      int first = -1;
      int last = -1;
      int matched = 0;
      for (int j = 0; j < seq.length; j++) {
        if (seq[j] >= 0) {
          cur = j > 0 && seq[j - 1] >= 0 && seq[j - 1] != seq[j] ? cur + 1 : 1;
          run = Math.max(run, cur);
          if (first < 0) first = j;
          last = j;
          matched++;
        } else {
          cur = 0;
        }
      }
      r[RUN] = qn == 0 ? 0 : run / (double) qn;
      r[PROXIMITY] = matched < 2 ? 0 : matched / (double) (last - first + 1);
      if (type != AnswerType.NONE) {
        r[ANSWER_TYPE_ASKED] = 1;
        r[ANSWER_TYPE] = holds(type, s.text(), queryFolded) ? 1 : 0;
      }
      // Interactions a linear model cannot form on its own.
      double denseUnit = r[DENSE_PRESENT] > 0 ? Math.max(0, r[DENSE]) : 0;
      r[COVER_X_DENSE] = cover[i] * denseUnit;
      r[TYPE_X_COVER] = r[ANSWER_TYPE] * cover[i];
      r[TYPE_X_DENSE] = r[ANSWER_TYPE] * denseUnit;
      r[PASSAGE_X_COVER] = passageRr[s.input()] * cover[i];
      r[WINDOW_X_DENSE] = r[WINDOW_COVER] * denseUnit;
      if (r[DENSE_PRESENT] > 0) {
        // The sentence with its neighbours, and its whole passage, by the mean of their vectors.
        r[DENSE_WINDOW] = cosine(queryVector, vectors, i - (hasPrev ? 1 : 0), i + (hasNext ? 1 : 0), sum);
        r[DENSE_PASSAGE] = passageDense[s.input()];
      }
    }
    if (!anyDense) {
      for (double[] r : x) r[DENSE_PRESENT] = 0;
    }
    return x;
  }

  /**
   * Cosine of {@code q} and the mean of {@code vectors[from..to]} (null entries skipped; 0 if none),
   * summed into {@code sum} (of {@code q}'s length; its contents are overwritten).
   */
  private static double cosine(float[] q, float[][] vectors, int from, int to, double[] sum) {
    java.util.Arrays.fill(sum, 0);
    boolean any = false;
    for (int j = from; j <= to; j++) {
      float[] v = vectors[j];
      if (v == null) continue;
      any = true;
      for (int k = 0; k < sum.length; k++) sum[k] += v[k];
    }
    if (!any) return 0;
    double dot = 0;
    double norm = 0;
    for (int k = 0; k < sum.length; k++) {
      dot += q[k] * sum[k];
      norm += sum[k] * sum[k];
    }
    return norm == 0 ? 0 : dot / Math.sqrt(norm);
  }

  /** 1 / (1 + the number of strictly greater values); NaN ranks last. */
  private static double[] reciprocalRanks(double[] v) {
    int n = v.length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) order[i] = i;
    java.util.Arrays.sort(order, (a, b) -> Double.compare(Double.isNaN(v[b]) ? Double.NEGATIVE_INFINITY : v[b],
        Double.isNaN(v[a]) ? Double.NEGATIVE_INFINITY : v[a]));
    double[] out = new double[n];
    int rank = 0;
    for (int k = 0; k < n; k++) {
      if (k > 0 && Double.compare(v[order[k]], v[order[k - 1]]) != 0) rank = k;
      out[order[k]] = 1.0 / (1 + rank);
    }
    return out;
  }

  private static boolean holds(AnswerType type, String text, Set<String> queryTerms) {
    return switch (type) {
      case TIME -> YEAR.matcher(text).find() || MONTH.matcher(text).find();
      case NUMBER -> hasDigit(text) || NUMBER.matcher(text).find();
      case PERSON, PLACE -> {
        var m = NAME.matcher(text);
        while (m.find()) {
          if (!queryTerms.contains(Terms.fold(m.group()).toLowerCase(Locale.ROOT))) yield true;
        }
        yield false;
      }
      case NONE -> false;
    };
  }

  private static boolean hasDigit(String text) {
    for (int i = 0; i < text.length(); i++) if (Character.isDigit(text.charAt(i))) return true;
    return false;
  }

  private static boolean samePart(Sentence a, Sentence b) {
    return a.input() == b.input() && a.part() == b.part();
  }

  private static long pair(int a, int b) {
    return ((long) a << 32) | b;
  }
}
