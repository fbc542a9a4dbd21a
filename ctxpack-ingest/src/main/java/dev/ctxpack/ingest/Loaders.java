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

  /**
   * These loaders, giving every document that has no access labels of its own (a JSON Lines
   * line's {@code acl}) the labels {@code acl} ({@code ctxpack ingest --acl}); fails on a bad label.
   */
  public Loaders labelled(java.util.Collection<String> acl) {
    String value = dev.ctxpack.index.Access.join(acl);
    List<Loader> wrapped = new java.util.ArrayList<>();
    java.util.Map<Loader, Loader> done = new java.util.IdentityHashMap<>();
    for (Loader l : byExtension.values()) if (!done.containsKey(l)) done.put(l, new Labelled(l, value));
    wrapped.addAll(done.values());
    return new Loaders(wrapped);
  }

  /** A loader whose unlabelled documents get {@code acl}. */
  private record Labelled(Loader inner, String acl) implements Loader {
    @Override
    public List<String> extensions() {
      return inner.extensions();
    }

    @Override
    public List<LoadedDocument> load(Path file) throws IngestException {
      return label(inner.load(file));
    }

    @Override
    public List<LoadedDocument> load(Path file, byte[] content) throws IngestException {
      return label(inner.load(file, content));
    }

    @Override
    public List<LoadedDocument> loadSkipping(Path file, java.util.function.Consumer<IngestSummary.BadLine> skipped)
        throws IngestException {
      return label(inner.loadSkipping(file, skipped));
    }

    @Override
    public List<LoadedDocument> load(Path file, byte[] content, LoadLimits limits) throws IngestException {
      return label(inner.load(file, content, limits));
    }

    @Override
    public boolean binaryFormat() {
      return inner.binaryFormat();
    }

    @Override
    public boolean container() {
      return inner.container();
    }

    private List<LoadedDocument> label(List<LoadedDocument> docs) {
      List<LoadedDocument> out = new java.util.ArrayList<>(docs.size());
      for (LoadedDocument d : docs) {
        if (d.metadata().containsKey(dev.ctxpack.index.Access.METADATA_KEY)) {
          out.add(d);
          continue;
        }
        java.util.Map<String, String> meta = new java.util.TreeMap<>(d.metadata());
        meta.put(dev.ctxpack.index.Access.METADATA_KEY, acl);
        out.add(new LoadedDocument(d.id(), d.uri(), d.title(), d.text(), meta, d.sections(), d.pages(), d.replacedChars()));
      }
      return out;
    }
  }
}
