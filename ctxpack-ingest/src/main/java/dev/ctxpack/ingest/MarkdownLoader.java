package dev.ctxpack.ingest;

import dev.ctxpack.chunk.Chunker.SectionMark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Markdown: one document per file, stored verbatim; the title is the first level-1 heading (else
 * the file name) and every ATX heading ({@code #} to {@code ######}) outside fenced code opens a
 * section whose path joins the enclosing headings with {@code " > "}.
 */
public final class MarkdownLoader implements Loader {
  @Override
  public List<String> extensions() {
    return List.of(".md", ".markdown");
  }

  @Override
  public List<LoadedDocument> load(Path file) throws IngestException {
    return load(file, Files2.readBytes(file));
  }

  @Override
  public List<LoadedDocument> load(Path file, byte[] content) throws IngestException {
    TextDecoding.Decoded decoded = Files2.decodeText(file, content);
    String text = dev.ctxpack.text.TextNormalizer.storageForm(decoded.text());
    List<SectionMark> sections = new ArrayList<>();
    String title = null;
    String[] path = new String[6];
    boolean fenced = false;
    int pos = 0;
    for (String line : text.split("\n", -1)) {
      String t = line.stripLeading();
      if (t.startsWith("```") || t.startsWith("~~~")) fenced = !fenced;
      if (!fenced && line.length() - t.length() < 4 && t.startsWith("#")) {
        int level = 0;
        while (level < t.length() && t.charAt(level) == '#') level++;
        if (level <= 6 && (level == t.length() || t.charAt(level) == ' ')) {
          String heading = t.substring(level).replaceAll("\\s#+\\s*$", "").strip();
          if (title == null && level == 1 && !heading.isEmpty()) title = heading;
          path[level - 1] = heading;
          for (int i = level; i < 6; i++) path[i] = null;
          List<String> parts = new ArrayList<>();
          for (String p : path) if (p != null && !p.isEmpty()) parts.add(p);
          sections.add(new SectionMark(pos, String.join(" > ", parts)));
        }
      }
      pos += line.length() + 1;
    }
    return List.of(new LoadedDocument(null, file.toUri().toString(), title != null ? title : Files2.baseName(file),
        text, Map.of(), sections, List.of(), decoded.replacedChars()));
  }
}
