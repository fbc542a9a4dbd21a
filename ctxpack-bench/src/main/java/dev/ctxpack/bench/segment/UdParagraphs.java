package dev.ctxpack.bench.segment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Running text rebuilt from a CoNLL-U file: each {@code # text = } comment is one gold sentence
 * (trimmed; empty ones are skipped), and the sentences of one paragraph are joined with single
 * spaces. A paragraph starts at every {@code # newpar} marker and at every {@code # newdoc} marker
 * ({@code # newdoc id = } as well as Bosque's {@code # newdoc_id = }); a file with neither is one
 * paragraph, all its sentences in file order (the running-text view of a treebank without layout;
 * {@link #markers} tells which case a file is). Comments before a sentence's {@code # text} and after it both
 * belong to that sentence, so the marker's position among a sentence's comments does not matter.
 * Token lines (including multi-word token lines) are not read.
 */
public final class UdParagraphs {
  private UdParagraphs() {}

  /**
   * One paragraph: its id (the newpar id, else the newdoc id, else {@code sentence-N} for the
   * paragraph opening at the N-th sentence), its document (the last newdoc id, else its id), the
   * joined text, and each gold sentence's end offset in it (the last one is {@code
   * text.length()}).
   */
  public record Paragraph(String id, String document, String text, List<Integer> sentenceEnds) {
    public Paragraph {
      sentenceEnds = List.copyOf(sentenceEnds);
    }

    public int sentences() {
      return sentenceEnds.size();
    }
  }

  /** Which markers a file uses: newpar, newdoc, or none. */
  public enum Markers { NEWPAR, NEWDOC, NONE }

  public static List<Paragraph> load(Path file) throws IOException {
    return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
  }

  /** The markers {@link #parse} splits paragraphs at for these lines. */
  public static Markers markers(List<String> lines) {
    boolean doc = false;
    for (String l : lines) {
      if (l.startsWith("# newpar")) return Markers.NEWPAR;
      if (l.startsWith("# newdoc")) doc = true;
    }
    return doc ? Markers.NEWDOC : Markers.NONE;
  }

  public static List<Paragraph> parse(List<String> lines) {
    List<Paragraph> out = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    List<Integer> ends = new ArrayList<>();
    String parId = null;
    String docId = null;
    String parDoc = null;
    // Per sentence block (comments up to the first token line or blank line).
    boolean breakHere = false;
    String blockId = null;
    String blockDoc = null;
    String blockText = null;
    int sentenceNo = 0;
    boolean inComments = true;
    for (int li = 0; li <= lines.size(); li++) {
      String l = li < lines.size() ? lines.get(li) : "";
      if (l.isBlank()) {
        // end of a sentence block
        if (blockText != null) {
          sentenceNo++;
          boolean newPar = breakHere || sentenceNo == 1;
          if (newPar && !ends.isEmpty()) {
            out.add(new Paragraph(parId, parDoc, text.toString(), ends));
            text.setLength(0);
            ends = new ArrayList<>();
          }
          if (blockDoc != null) docId = blockDoc;
          if (newPar) {
            parId = blockId != null ? blockId : "sentence-" + sentenceNo;
            parDoc = docId != null ? docId : parId;
          }
          if (!blockText.isEmpty()) {
            if (text.length() > 0) text.append(' ');
            text.append(blockText);
            ends.add(text.length());
          }
        }
        breakHere = false;
        blockId = null;
        blockDoc = null;
        blockText = null;
        inComments = true;
        continue;
      }
      if (!l.startsWith("#")) {
        inComments = false;
        continue;
      }
      if (!inComments) continue;
      if (l.startsWith("# newpar")) {
        breakHere = true;
        blockId = value(l);
      } else if (l.startsWith("# newdoc")) {
        breakHere = true;
        blockDoc = value(l);
        if (blockId == null) blockId = blockDoc;
      } else if (l.startsWith("# text =") || l.startsWith("# text=")) {
        blockText = l.substring(l.indexOf('=') + 1).strip();
      }
    }
    if (!ends.isEmpty()) out.add(new Paragraph(parId, parDoc, text.toString(), ends));
    return out;
  }

  private static String value(String comment) {
    int eq = comment.indexOf('=');
    String v = eq < 0 ? "" : comment.substring(eq + 1).strip();
    return v.isEmpty() ? null : v;
  }
}
