package dev.ctxpack.ingest.clean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.chunk.Chunker.SectionMark;
import dev.ctxpack.ingest.LoadedDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class CleanerTest {
  private final Cleaner cleaner = new Cleaner(CleanOptions.defaults());

  private static LoadedDocument doc(String text) {
    return new LoadedDocument(null, "u", "t", text, Map.of(), List.of());
  }

  private static LoadedDocument paged(List<String> pages) {
    StringBuilder sb = new StringBuilder();
    List<Integer> starts = new ArrayList<>();
    for (String p : pages) {
      starts.add(sb.length());
      sb.append(p);
    }
    return new LoadedDocument(null, "u", "t", sb.toString(), Map.of(), List.of(), starts, 0);
  }

  private static final String[] PROSE = {
      "The trial enrolled patients with stable angina across twelve centres.",
      "Outcomes were measured at six and twelve months after randomisation.",
      "Adverse events were rare and did not differ between the two groups.",
      "Os resultados mostram uma redução clara na taxa de internação hospitalar.",
      "A análise secundária confirmou o efeito em todos os subgrupos estudados.",
      "Further work should test the intervention in primary care settings."};

  @Test
  void runningHeadsAndPageNumbersAreRemovedAndPageStartsMoved() {
    List<String> pages = new ArrayList<>();
    for (int p = 1; p <= 4; p++) {
      pages.add("Journal of Clinical Reports · Vol. 12\n" + PROSE[p] + "\nOn page " + p + ", " + PROSE[p + 1] + "\nPage " + p
          + " of 4\n");
    }
    Cleaned c = cleaner.clean(paged(pages), null);
    assertThat(c.doc().text()).doesNotContain("Journal of Clinical").doesNotContain("Page ");
    assertThat(c.counts()).containsEntry("page-header", 4).containsEntry("page-footer", 4);
    assertThat(c.removals()).hasSize(8);
    for (Removal r : c.removals()) {
      assertThat(paged(pages).text().substring(r.start(), r.end())).isEqualTo(r.text());
    }
    assertThat(c.removals().get(1).text()).isEqualTo("Page 1 of 4\n");
    // Each page now starts at its first line of prose.
    for (int p = 0; p < 4; p++) {
      assertThat(c.doc().text().substring(c.doc().pages().get(p))).startsWith(PROSE[p + 1]);
      assertThat(c.doc().text()).contains("On page " + (p + 1) + ", ");
    }
  }

  @Test
  void oneAlikeLineOnOnePageIsNotAHeader() {
    List<String> pages = List.of("Introduction to the study\n" + PROSE[0] + "\n", PROSE[1] + "\n" + PROSE[2] + "\n",
        PROSE[3] + "\n" + PROSE[4] + "\n", PROSE[5] + "\nIntroduction to the study\n");
    Cleaned c = cleaner.clean(paged(pages), null);
    assertThat(c.removals()).isEmpty();
  }

  private static List<LoadedDocument> corpus(int docs, String boilerplate) {
    List<LoadedDocument> out = new ArrayList<>();
    for (int d = 0; d < docs; d++) {
      String text = PROSE[d % PROSE.length] + " Document " + word(d) + " has its own sentence.\n"
          + (d % 2 == 0 ? boilerplate + "\n" : "") + "\n" + "In part two of document " + word(d) + ": "
          + PROSE[(d + 1) % PROSE.length] + "\n" + (d < 4 ? "A short line in four documents only\n" : "")
          + (d % 2 == 1 ? boilerplate + "\n" : "");
      out.add(doc(text));
    }
    return out;
  }

  /** A word for number {@code d}: lines that differ only in digits have the same key. */
  private static String word(int d) {
    return "" + (char) ('a' + d % 26) + (char) ('a' + d / 26) + "x";
  }

  @Test
  void aShortLineInManyDocumentsIsRemovedWithoutPageBreaks() {
    String boiler = "© 2024 Acme Health Ltd. All rights reserved.";
    List<LoadedDocument> docs = corpus(40, boiler);
    CorpusLines lines = new CorpusLines(CleanOptions.defaults());
    docs.forEach(lines::add);
    assertThat(lines.active()).isTrue();
    for (LoadedDocument d : docs) {
      Cleaned c = cleaner.clean(d, lines);
      assertThat(c.doc().text()).doesNotContain("All rights reserved");
      assertThat(c.removals()).extracting(Removal::reason).containsExactly(Reason.REPEATED_LINE);
      assertThat(c.removals().get(0).text()).isEqualTo(boiler + "\n");
    }
    // max(5 documents, 5 % of 40): a line in four documents stays.
    assertThat(lines.threshold()).isEqualTo(5);
    assertThat(cleaner.clean(docs.get(0), lines).doc().text()).contains("A short line in four documents only");
  }

  @Test
  void aDocumentThatIsOnlyALineFoundRepeatingKeepsIt() {
    // Templated one-line records, alike but for their figures: each line is its document's text.
    List<LoadedDocument> docs = new java.util.ArrayList<>();
    for (int i = 0; i < 30; i++) {
      docs.add(new LoadedDocument(null, "file:///r" + i, "r" + i, "Record " + i + " of batch " + (i % 3) + " was received.\n",
          Map.of(), List.of()));
    }
    CorpusLines lines = new CorpusLines(CleanOptions.defaults());
    docs.forEach(lines::add);
    assertThat(lines.active()).isTrue();
    for (LoadedDocument d : docs) {
      Cleaned c = cleaner.clean(d, lines);
      assertThat(c.doc().text()).isEqualTo(d.text().strip());
      assertThat(c.removals()).isEmpty();
    }
  }

  @Test
  void aSmallBatchJudgesNoLineAcrossTheCorpus() {
    String boiler = "Accept cookies to continue reading this page";
    List<LoadedDocument> docs = corpus(10, boiler);
    CorpusLines lines = new CorpusLines(CleanOptions.defaults());
    docs.forEach(lines::add);
    assertThat(lines.active()).isFalse();
    for (LoadedDocument d : docs) assertThat(cleaner.clean(d, lines).doc().text()).contains(boiler);
  }

  @Test
  void longLinesHeadingsAndCodeAreNeverRemovedForRepeating() {
    String longLine = "This paragraph is long prose that happens to be repeated in every document of the corpus, "
        + "because an editor pasted it everywhere; it is too long to be boilerplate by the line rule, whatever "
        + "its frequency, and must stay where it is.";
    List<LoadedDocument> docs = new ArrayList<>();
    for (int d = 0; d < 30; d++) {
      String text = "## Materials and methods\n" + PROSE[d % 6] + " Unique " + d + ".\n" + longLine + "\n"
          + "```\nreturn value + offset;\n```\n2 Materials and Methods\n| Total | value |\n";
      docs.add(new LoadedDocument(null, "u", "t", text, Map.of(), List.of(new SectionMark(0, "Materials and methods"))));
    }
    CorpusLines lines = new CorpusLines(CleanOptions.defaults());
    docs.forEach(lines::add);
    for (LoadedDocument d : docs) {
      Cleaned c = cleaner.clean(d, lines);
      assertThat(c.doc().text()).contains("## Materials and methods", longLine, "return value + offset;",
          "2 Materials and Methods", "| Total | value |");
      assertThat(c.doc().sections()).containsExactly(new SectionMark(0, "Materials and methods"));
    }
  }

  @Test
  void aLineRepeatedManyTimesInOneDocumentIsRemoved() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 6; i++) sb.append(PROSE[i]).append("\nBack to the table of contents\n\n");
    Cleaned c = cleaner.clean(doc(sb.toString()), null);
    assertThat(c.doc().text()).doesNotContain("Back to the table");
    assertThat(c.counts()).containsEntry("repeated-line", 6);
    for (String p : PROSE) assertThat(c.doc().text()).contains(p);
  }

  @Test
  void barePageNumbersCountingUpAreRemovedWithoutPageBreaksButARowNumberColumnStays() {
    StringBuilder sb = new StringBuilder("Rank\n1\n2\n3\n4\n\n");
    for (int p = 1; p <= 4; p++) {
      for (int i = 0; i < 10; i++) sb.append("Line ").append(i).append(" of part ").append(p).append(" says something.\n");
      sb.append("— ").append(p).append(" —\n");
    }
    Cleaned c = cleaner.clean(doc(sb.toString()), null);
    assertThat(c.removals()).extracting(Removal::text).containsExactly("— 1 —\n", "— 2 —\n", "— 3 —\n", "— 4 —\n");
    assertThat(c.doc().text()).startsWith("Rank\n1\n2\n3\n4\n\n");
  }

  @Test
  void linesThatDifferOnlyInTheirFiguresAreNotRepeatsInOneDocument() {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= 6; i++) sb.append("Group ").append(i).append(" enrolled ").append(i * 11).append(" patients\n");
    for (int i = 1; i <= 6; i++) sb.append("Page ").append(i).append(" of 6\n");
    Cleaned c = cleaner.clean(doc(sb.toString()), null);
    assertThat(c.doc().text()).contains("Group 1 enrolled 11 patients", "Group 6 enrolled 66 patients")
        .doesNotContain("Page ");
  }

  @Test
  void regexMatchesAreRemovedAndABlankedLineGoesWhole() {
    Cleaner withRegex = new Cleaner(CleanOptions.defaults().withRemove(List.of("^CONFIDENTIAL.*$", "\\[\\d+\\]")));
    String text = "CONFIDENTIAL - internal use\nThe drug works [12] in most cases.\nNext line.\n";
    Cleaned c = withRegex.clean(doc(text), null);
    assertThat(c.doc().text()).isEqualTo("The drug works in most cases.\nNext line.");
    assertThat(c.removals()).extracting(Removal::text).containsExactly("CONFIDENTIAL - internal use\n", "[12]");
    assertThat(c.removals()).allMatch(r -> r.reason() == Reason.REGEX);
  }

  @Test
  void aBadRegexIsAnErrorNamingIt() {
    assertThatThrownBy(() -> CleanOptions.defaults().withRemove(List.of("ok", "(unclosed")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'(unclosed'");
  }

  @Test
  void whitespaceIsNormalisedKeepingParagraphsIndentationAndCode() {
    String text = "\n\n  Title  \r\n\r\n\r\nFirst\t\tline   with  gaps.  \nsecond line\u00a0here\n\n\n\n"
        + "```\na  =  1   \n\n\nb\n```\n\n\n";
    Cleaned c = cleaner.clean(doc(text), null);
    assertThat(c.doc().text())
        .isEqualTo("  Title\n\nFirst line with gaps.\nsecond line here\n\n```\na  =  1   \n\n\nb\n```");
    assertThat(c.removals()).isEmpty();
    assertThat(c.counts()).containsKey("whitespace");
  }

  @Test
  void unicodeIsStoredNfcWithSectionOffsetsFollowing() {
    String text = "Cafe\u0301 com leite\r\n\r\n# Sec\u0327a\u0303o\r\nTexto.";
    int sec = text.indexOf("# Sec");
    LoadedDocument d = new LoadedDocument(null, "u", "t", text, Map.of(), List.of(new SectionMark(sec, "Seção")));
    Cleaned c = cleaner.clean(d, null);
    assertThat(c.doc().text()).isEqualTo("Café com leite\n\n# Seção\nTexto.");
    assertThat(c.doc().text().substring(c.doc().sections().get(0).start())).startsWith("# Seção");
    assertThat(c.counts()).containsKeys("unicode", "whitespace");
  }

  @Test
  void offCleansNothing() {
    String text = "a  b\r\n\n\n\nc";
    Cleaned c = new Cleaner(CleanOptions.off()).clean(doc(text), null);
    assertThat(c.doc().text()).isEqualTo(text);
    assertThat(c.counts()).isEmpty();
  }

  @Property(tries = 300)
  void sectionAndPageOffsetsPointAtTheSameCharacterOrTheNextKeptOne(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 40) int lineCount) {
    Random r = new Random(seed);
    String[] words = {"alpha", "beta", "gamma", "delta", "Page 3", "x", "  ", "\t", "NOISE"};
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < lineCount; i++) {
      int n = r.nextInt(5);
      for (int w = 0; w < n; w++) sb.append(words[r.nextInt(words.length)]).append(r.nextInt(4) == 0 ? "  " : " ");
      sb.append(r.nextInt(5) == 0 ? "\r\n" : "\n");
    }
    String text = sb.toString();
    List<SectionMark> marks = new ArrayList<>();
    List<Integer> pages = new ArrayList<>();
    int at = 0;
    for (int i = 0; i < 5 && at < text.length(); i++) {
      at += r.nextInt(Math.max(1, text.length() / 4));
      marks.add(new SectionMark(Math.min(at, text.length()), "s" + i));
      pages.add(Math.min(at, text.length()));
    }
    LoadedDocument d = new LoadedDocument(null, "u", "t", text, Map.of(), marks, pages, 0);
    Cleaner c = new Cleaner(CleanOptions.defaults().withRemove(List.of("NOISE", "^gamma.*$")));
    Cleaned out = c.clean(d, null);
    String cleaned = out.doc().text();
    boolean[] removed = new boolean[text.length()];
    for (Removal rm : out.removals()) for (int i = rm.start(); i < rm.end(); i++) removed[i] = true;
    for (int i = 0; i < marks.size(); i++) {
      check(text, removed, cleaned, marks.get(i).start(), out.doc().sections().get(i).start());
      check(text, removed, cleaned, pages.get(i), out.doc().pages().get(i));
    }
  }

  /** Whitespace aside, the mapped offset has exactly the kept characters of the source before it. */
  private static void check(String text, boolean[] removed, String cleaned, int offset, int mapped) {
    assertThat(mapped).isBetween(0, cleaned.length());
    int next = offset;
    while (next < text.length() && (removed[next] || Character.isWhitespace(text.charAt(next)))) next++;
    int keptBefore = 0;
    for (int i = 0; i < next; i++) if (!removed[i] && !Character.isWhitespace(text.charAt(i))) keptBefore++;
    int before = 0;
    for (int i = 0; i < mapped; i++) if (!Character.isWhitespace(cleaned.charAt(i))) before++;
    assertThat(before).as("non-blank characters before %d (was %d) in %s", mapped, offset, cleaned).isEqualTo(keptBefore);
    int firstAfter = mapped;
    while (firstAfter < cleaned.length() && Character.isWhitespace(cleaned.charAt(firstAfter))) firstAfter++;
    if (next < text.length()) assertThat(cleaned.charAt(firstAfter)).isEqualTo(text.charAt(next));
    else assertThat(firstAfter).isEqualTo(cleaned.length());
  }
}
