package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.embed.Embedder;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Which texts of a file get no vector, and why. */
class TextVectorsTest {
  /** Reads words of at most 12 letters; lower-cases before embedding; rejects zero-width-only text. */
  static final class SmallVocabulary implements Embedder {
    final List<String> embedded = new ArrayList<>();

    @Override
    public String id() {
      return "small-vocabulary";
    }

    @Override
    public int dimension() {
      return 64;
    }

    @Override
    public double readableShare(String text) {
      String[] words = text.trim().split("\\s+");
      long known = java.util.Arrays.stream(words).filter(w -> w.length() <= 12).count();
      return words.length == 0 ? 1 : (double) known / words.length;
    }

    @Override
    public synchronized List<float[]> embed(List<String> texts) {
      List<float[]> out = new ArrayList<>();
      for (String t : texts) {
        if (t.replace("\u200B", "").isBlank()) throw new IllegalArgumentException("nothing to embed");
        embedded.add(t);
        out.add(SentenceVectorIngestTest.HashingEmbedder.vector(t.toLowerCase(Locale.ROOT)));
      }
      return out;
    }
  }

  @Test
  void unreadableRejectedAndRepeatedVectorsAreLeftOutOfTheWindows() {
    String longWord = "q".repeat(40);
    List<String> texts = List.of("Penguins eat fish.", longWord, "PENGUINS EAT FISH.", "\u200B", "Intro. " + longWord,
        "penguins eat fish.");
    BitSet windows = new BitSet();
    windows.set(0, 5); // the last text is a sentence only
    SmallVocabulary model = new SmallVocabulary();
    List<Integer> progress = new ArrayList<>();
    TextVectors v = TextVectors.embed(model, texts, windows, progress::add);

    assertThat(v.window(0)).isNotNull();
    assertThat(v.missing(1)).isEqualTo(TextVectors.Missing.UNREADABLE);
    assertThat(v.missing(2)).isEqualTo(TextVectors.Missing.SAME_VECTOR);
    assertThat(v.window(2)).isNull();
    assertThat(v.sentence(2)).isNotNull();
    assertThat(v.missing(3)).isEqualTo(TextVectors.Missing.REJECTED);
    assertThat(v.missing(4)).isNull(); // half of it is readable
    assertThat(v.sentence(5)).isNotNull(); // a sentence keeps a repeated vector
    assertThat(model.embedded).doesNotContain(longWord);
    assertThat(progress).last().isEqualTo(texts.size());

    TextVectors.Tally tally = new TextVectors.Tally();
    tally.window(0, 0, v.missing(1));
    tally.window(0, 0, v.missing(0)); // another window of the same chunk has a vector
    tally.window(0, 1, v.missing(1));
    tally.window(0, 1, v.missing(2));
    tally.window(1, 0, v.missing(2));
    Map<String, Integer> counts = new TreeMap<>();
    tally.addTo(counts);
    assertThat(counts).containsExactlyEntriesOf(new TreeMap<>(Map.of("unreadable", 1, "sameVector", 1)));
  }
}
