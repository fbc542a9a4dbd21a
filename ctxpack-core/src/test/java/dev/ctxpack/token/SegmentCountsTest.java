package dev.ctxpack.token;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The segment count table of {@link JTokkitTokenizer#count}: a segment is found by its characters
 * only (never another segment's count, whatever the hash says), the table grows and starts again
 * empty at its bound, and threads reading while others write never see a wrong count.
 */
class SegmentCountsTest {
  /** A count that differs between segments, as a check that no segment reads another's. */
  private static int countOf(String s) {
    return Math.floorMod(s.hashCode() * 31 + s.length(), 5000);
  }

  private static String segment(Random random) {
    StringBuilder sb = new StringBuilder(random.nextBoolean() ? " " : "");
    String letters = "abcdeé çãxyzμ0123456789.,";
    for (int k = 1 + random.nextInt(12); k > 0; k--) sb.append(letters.charAt(random.nextInt(letters.length())));
    return sb.toString();
  }

  @Test
  void aSegmentIsFoundByItsCharactersInsideAnyText() {
    SegmentCounts counts = new SegmentCounts();
    String text = "The cells of the liver";
    counts.put(text, 3, 9, " cells".hashCode(), 2);
    assertThat(counts.get("x cells y", 1, 7, " cells".hashCode())).isEqualTo(2);
    assertThat(counts.get(" cellS", 0, 6, " cells".hashCode())).isEqualTo(-1); // same hash given, other characters
    assertThat(counts.get(" cell", 0, 5, " cell".hashCode())).isEqualTo(-1);
    // Two segments with one String hash ("Aa" and "BB") are told apart by their characters.
    counts.put("Aa", 0, 2, "Aa".hashCode(), 1);
    counts.put("BB", 0, 2, "BB".hashCode(), 7);
    assertThat(counts.get("Aa", 0, 2, "Aa".hashCode())).isEqualTo(1);
    assertThat(counts.get("BB", 0, 2, "BB".hashCode())).isEqualTo(7);
    assertThat(counts.size()).isEqualTo(3);
  }

  /** Short words (held in their slots) and long or non-Latin-1 ones (held among the characters), alternately. */
  private static String word(int i) {
    return switch (i % 3) {
      case 0 -> " w" + i;
      case 1 -> " a-longer-word-" + i;
      default -> " μ" + i;
    };
  }

  @Test
  void theTableGrowsKeepingEverySegmentAndStartsAgainAtItsBound() {
    SegmentCounts counts = new SegmentCounts();
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      String s = word(i);
      counts.put(s, 0, s.length(), s.hashCode(), countOf(s));
      seen.add(s);
    }
    assertThat(counts.size()).isEqualTo(50_000);
    for (String s : seen) assertThat(counts.get(s, 0, s.length(), s.hashCode())).isEqualTo(countOf(s));
    for (int i = 50_000; i <= SegmentCounts.MAX_SEGMENTS; i++) {
      String s = word(i);
      counts.put(s, 0, s.length(), s.hashCode(), countOf(s));
    }
    assertThat(counts.size()).isLessThan(1_000); // started again
    String last = word(SegmentCounts.MAX_SEGMENTS);
    assertThat(counts.get(last, 0, last.length(), last.hashCode())).isEqualTo(countOf(last));
    for (int i = 0; i < 3; i++) assertThat(counts.get(word(i), 0, word(i).length(), word(i).hashCode())).isEqualTo(-1);
  }

  @Test
  void readersBesideWritersSeeTheRightCountOrNone() throws Exception {
    SegmentCounts counts = new SegmentCounts();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<long[]>> results = new ArrayList<>();
      for (int th = 0; th < 4; th++) {
        long seed = th;
        results.add(pool.submit(() -> {
          Random random = new Random(seed);
          long found = 0;
          long wrong = 0;
          // Enough distinct segments to make the table grow and start again several times.
          for (int i = 0; i < 400_000; i++) {
            String s = segment(random);
            String text = "ab" + s + "cd";
            int got = counts.get(text, 2, 2 + s.length(), s.hashCode());
            if (got >= 0) {
              found++;
              if (got != countOf(s)) wrong++;
            } else {
              counts.put(text, 2, 2 + s.length(), s.hashCode(), countOf(s));
            }
          }
          return new long[] {found, wrong};
        }));
      }
      long found = 0;
      for (Future<long[]> f : results) {
        long[] r = f.get();
        assertThat(r[1]).as("wrong counts").isZero();
        found += r[0];
      }
      assertThat(found).isGreaterThan(100_000);
    } finally {
      pool.shutdownNow();
    }
  }
}
