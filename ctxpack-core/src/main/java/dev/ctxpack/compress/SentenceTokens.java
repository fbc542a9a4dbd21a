package dev.ctxpack.compress;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.embed.TokenStates;
import java.util.ArrayList;
import java.util.List;

/**
 * The token-level evidence of one request: the query's content-token vectors and, per sentence,
 * the vectors of its content tokens as the model read them in their passage (each passage part run
 * whole, or in windows of whole sentences where it is longer than the model reads, so a sentence's
 * tokens carry its neighbours' context: late interaction over the shipped embedder's own token
 * states). {@link #match()} turns them into the
 * two token-match features of {@link SentenceFeatures}; {@link #vectors()} are the sentences'
 * vectors pooled from the same pass (the mean of their tokens, unit length; {@code null} for a
 * sentence with none), which the model with token states reads instead of embedding each sentence
 * again on its own: one pass per passage gives both.
 *
 * <p>For each query token, its best cosine with any token of the sentence (MaxSim). {@code tok_max}
 * is the mean over the query's tokens. {@code tok_idf} weighs each query token by how rarely the
 * request's windows hold a close match to it ({@code 1 -} the mean, over the windows, of the best
 * cosine; at least 0.05), a contextual IDF: a query token every passage matches ("the", the
 * article's topic word) counts little, the one only the answer's passage matches counts most.
 */
public record SentenceTokens(float[][] query, float[][][] sentences, float[][][] windows, float[][] vectors) {
  /**
   * Reads {@code query} and {@code sentences} through {@code embedder}'s token states, or returns
   * {@code null} when it has none (then the features are absent and the model without them is used).
   */
  public static SentenceTokens read(Embedder embedder, String queryPrefix, String passagePrefix, String query,
      List<CompressInput> inputs, List<Sentence> sentences) {
    TokenStates q = embedder.tokenStates(queryPrefix + query);
    if (q == null) return null;
    float[][] queryTokens = content(q, queryPrefix.length(), Integer.MAX_VALUE);
    if (queryTokens.length == 0) return null;
    float[][][] perSentence = new float[sentences.size()][][];
    float[][] pooled = new float[sentences.size()][];
    List<float[][]> windows = new ArrayList<>();
    int i = 0;
    while (i < sentences.size()) {
      Sentence first = sentences.get(i);
      int j = i + 1;
      while (j < sentences.size() && sentences.get(j).input() == first.input() && sentences.get(j).part() == first.part()) j++;
      String part = inputs.get(first.input()).parts().get(first.part()).text();
      String text = part.substring(first.start(), sentences.get(j - 1).end());
      TokenStates w = text.isBlank() ? null : embedder.tokenStates(passagePrefix + text);
      int shift = passagePrefix.length() - first.start();
      if (w == null) {
        for (int k = i; k < j; k++) perSentence[k] = new float[0][];
        i = j;
        continue;
      }
      windows.add(content(w, passagePrefix.length(), Integer.MAX_VALUE));
      // The model reads at most 512 pieces: the sentences it read to the end take their tokens from
      // this pass, and the next pass starts at the first one it did not (a single sentence longer
      // than the model reads keeps the tokens it has).
      int read = lastRead(w) - shift;
      int next = i;
      while (next < j && lastLetter(part, sentences.get(next)) < read) next++;
      if (next == i) next = i + 1;
      for (int k = i; k < next; k++) {
        Sentence s = sentences.get(k);
        perSentence[k] = content(w, s.start() + shift, s.end() + shift);
        pooled[k] = pool(w, s.start() + shift, s.end() + shift);
      }
      i = next;
    }
    return new SentenceTokens(queryTokens, perSentence, windows.toArray(new float[0][][]), pooled);
  }

  /** The end of the last token the model read (an offset into its text). */
  private static int lastRead(TokenStates t) {
    int end = 0;
    for (int k = 0; k < t.size(); k++) end = Math.max(end, t.end()[k]);
    return end;
  }

  /** The offset in its part of the sentence's last letter or digit (its start when it has none). */
  private static int lastLetter(String part, Sentence s) {
    for (int k = s.end() - 1; k >= s.start(); k--) if (Character.isLetterOrDigit(part.charAt(k))) return k;
    return s.start();
  }

  /**
   * The unit mean of the token vectors of {@code t} starting in [from, to) of its text (punctuation
   * included), or {@code null} when none: the sentence's vector as read in its passage.
   */
  private static float[] pool(TokenStates t, int from, int to) {
    float[] sum = null;
    for (int k = 0; k < t.size(); k++) {
      if (t.start()[k] < from || t.start()[k] >= to) continue;
      if (sum == null) sum = new float[t.vectors()[k].length];
      for (int j = 0; j < sum.length; j++) sum[j] += t.vectors()[k][j];
    }
    return sum == null ? null : Embedder.normalize(sum);
  }

  /** The content tokens of {@code t} starting in [from, to) of its text. */
  private static float[][] content(TokenStates t, int from, int to) {
    List<float[]> out = new ArrayList<>();
    for (int k = 0; k < t.size(); k++) {
      if (t.content()[k] && t.start()[k] >= from && t.start()[k] < to) out.add(t.vectors()[k]);
    }
    return out.toArray(new float[0][]);
  }

  /** Per sentence, {@code {tok_max, tok_idf}} (0 for a sentence with no token read). */
  public double[][] match() {
    int nq = query.length;
    double[] weight = new double[nq];
    for (float[][] w : windows) for (int a = 0; a < nq; a++) weight[a] += best(query[a], w);
    double weightSum = 0;
    for (int a = 0; a < nq; a++) {
      weight[a] = windows.length == 0 ? 1 : Math.max(0.05, 1 - weight[a] / windows.length);
      weightSum += weight[a];
    }
    double[][] out = new double[sentences.length][2];
    for (int s = 0; s < sentences.length; s++) {
      if (sentences[s] == null || sentences[s].length == 0) continue;
      double plain = 0;
      double weighted = 0;
      for (int a = 0; a < nq; a++) {
        double b = best(query[a], sentences[s]);
        plain += b;
        weighted += weight[a] * b;
      }
      out[s][0] = plain / nq;
      out[s][1] = weighted / weightSum;
    }
    return out;
  }

  private static double best(float[] q, float[][] tokens) {
    double best = tokens.length == 0 ? 0 : -1;
    for (float[] t : tokens) {
      double dot = 0;
      for (int k = 0; k < q.length; k++) dot += q[k] * t[k];
      if (dot > best) best = dot;
    }
    return best;
  }
}
