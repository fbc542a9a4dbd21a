package dev.ctxpack.ingest;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The loaders by file extension. */
public final class Loaders {
  private final Map<String, Loader> byExtension = new LinkedHashMap<>();

  public Loaders(List<Loader> loaders) {
    for (Loader l : loaders) for (String ext : l.extensions()) byExtension.put(ext, l);
  }

  /** Text, Markdown, JSON Lines, HTML and PDF. */
  public static Loaders defaults() {
    return new Loaders(List.of(new TextLoader(), new MarkdownLoader(), new JsonlLoader(), new HtmlLoader(),
        new PdfLoader()));
  }

  public Optional<Loader> forFile(Path file) {
    String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
    int dot = n.lastIndexOf('.');
    return dot < 0 ? Optional.empty() : Optional.ofNullable(byExtension.get(n.substring(dot)));
  }

  public List<String> extensions() {
    return List.copyOf(byExtension.keySet());
  }
}
