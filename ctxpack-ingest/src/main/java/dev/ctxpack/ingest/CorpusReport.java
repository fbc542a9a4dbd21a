package dev.ctxpack.ingest;

import dev.ctxpack.similarity.Boilerplate;
import dev.ctxpack.index.CorpusCatalog;
import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.model.DocInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What a corpus holds twice, so that it can be fixed at the source (ctxpack 0.1; {@code ctxpack
 * corpus-report}). Built from what ingestion stored ({@link CorpusCatalog#duplicates()},
 * {@link CorpusCatalog#corpusDocuments()}, {@link CorpusCatalog#recurringChunks}):
 *
 * <ol>
 *   <li>{@code exact}: per stored document, the files that repeated it exactly and were not indexed;
 *   <li>{@code near}: clusters of documents marked {@code near-duplicate-of}, each under its original
 *       (the document the marks lead to), with each member's estimated Jaccard;
 *   <li>{@code versions}: near-duplicate pairs that share a title or a URI/path stem (of two
 *       different URIs or paths: the file name
 *       without extension and trailing version words: {@code report-v2.md}, {@code report (1).md},
 *       {@code report_old.md} and {@code report.md} share {@code report}) — old and new versions of
 *       one document; the newer is the one with the later metadata date ({@code date}, {@code
 *       modified}, {@code published}) when both have one and they differ, else the later file
 *       time, else the one ingested later (the marked one);
 *   <li>{@code boilerplate}: chunk texts held by at least {@code minDocuments} documents, most first.
 * </ol>
 * Every list is in a fixed order (ids, paths), so the same index gives the same report.
 */
public record CorpusReport(
    int documents, List<ExactCluster> exact, List<NearCluster> near, List<Version> versions,
    List<CorpusCatalog.Recurring> boilerplate, int minDocuments) {
  public CorpusReport {
    exact = List.copyOf(exact);
    near = List.copyOf(near);
    versions = List.copyOf(versions);
    boilerplate = List.copyOf(boilerplate);
  }

  /** A stored document as the report names it. */
  public record Doc(String id, String path, String uri, String title) {}

  /** A stored document and the files that repeated it exactly. */
  public record ExactCluster(Doc original, List<String> copies) {}

  /** A member of a near cluster: the document, the one it was marked against, the estimated Jaccard. */
  public record Member(Doc doc, String of, double similarity) {}

  /** An original and every document whose marks lead to it. */
  public record NearCluster(Doc original, List<Member> members) {}

  /** Two versions of one document: {@code by} is {@code metadata-date}, {@code file-time} or {@code ingestion-order}. */
  public record Version(Doc newer, Doc older, String shared, String by, double similarity) {}

  private static final Pattern VERSION_SUFFIX = Pattern.compile(
      "([ ._-]*(\\(\\d+\\)|v\\d+(\\.\\d+)*|\\d+|old|new|copy|final|draft|backup|bak|latest|rev\\d*))+$");

  /** The report of {@code index}, boilerplate being chunk texts of at least {@code minDocuments} documents. */
  public static CorpusReport of(CorpusCatalog index, int minDocuments) throws IOException {
    if (minDocuments < 2) throw new IllegalArgumentException("minDocuments must be >= 2, was " + minDocuments);
    List<CorpusCatalog.CorpusDoc> docs = index.corpusDocuments();
    Map<String, CorpusCatalog.CorpusDoc> byId = new HashMap<>();
    for (CorpusCatalog.CorpusDoc d : docs) byId.put(d.id(), d);

    Map<String, List<String>> copies = new TreeMap<>();
    for (DuplicateRecord r : index.duplicates()) copies.computeIfAbsent(r.of(), k -> new ArrayList<>()).add(r.path());
    List<ExactCluster> exact = new ArrayList<>();
    copies.forEach((of, paths) -> {
      CorpusCatalog.CorpusDoc o = byId.get(of);
      exact.add(new ExactCluster(o == null ? new Doc(of, "", "", "") : doc(o), paths.stream().sorted().distinct().toList()));
    });

    Map<String, List<Member>> clusters = new TreeMap<>();
    List<Version> versions = new ArrayList<>();
    for (CorpusCatalog.CorpusDoc d : docs) {
      if (d.nearDuplicateOf().isEmpty()) continue;
      clusters.computeIfAbsent(root(d, byId), k -> new ArrayList<>()).add(new Member(doc(d), d.nearDuplicateOf(), d.similarity()));
      CorpusCatalog.CorpusDoc o = byId.get(d.nearDuplicateOf());
      if (o != null) {
        Version v = version(d, o);
        if (v != null) versions.add(v);
      }
    }
    List<NearCluster> near = new ArrayList<>();
    clusters.forEach((root, members) -> {
      CorpusCatalog.CorpusDoc o = byId.get(root);
      members.sort(Comparator.comparing((Member m) -> m.doc().id()));
      near.add(new NearCluster(o == null ? new Doc(root, "", "", "") : doc(o), members));
    });
    versions.sort(Comparator.comparing((Version v) -> v.older().id()).thenComparing(v -> v.newer().id()));
    return new CorpusReport(docs.size(), exact, near, versions, index.recurringChunks(minDocuments), minDocuments);
  }

  /** The report with the default boilerplate threshold ({@value Boilerplate#DEFAULT_MIN_DOCUMENTS} documents). */
  public static CorpusReport of(CorpusCatalog index) throws IOException {
    return of(index, Boilerplate.DEFAULT_MIN_DOCUMENTS);
  }

  /** The document the marks of {@code d} lead to: the first not marked, or not stored, or met twice. */
  private static String root(CorpusCatalog.CorpusDoc d, Map<String, CorpusCatalog.CorpusDoc> byId) {
    String at = d.nearDuplicateOf();
    java.util.Set<String> seen = new java.util.HashSet<>(List.of(d.id()));
    while (true) {
      CorpusCatalog.CorpusDoc next = byId.get(at);
      if (next == null || next.nearDuplicateOf().isEmpty() || !seen.add(at)) return at;
      at = next.nearDuplicateOf();
    }
  }

  private static Version version(CorpusCatalog.CorpusDoc marked, CorpusCatalog.CorpusDoc original) {
    String shared = null;
    if (!marked.title().isBlank() && marked.title().strip().equalsIgnoreCase(original.title().strip())) {
      shared = "title";
    } else {
      String wa = marked.uri().isBlank() ? marked.sourcePath() : marked.uri();
      String wb = original.uri().isBlank() ? original.sourcePath() : original.uri();
      // Two documents of one file (JSON Lines) share its path, not a name.
      String a = wa.equals(wb) ? "" : stem(wa);
      if (!a.isEmpty() && a.equals(stem(wb))) shared = "stem";
    }
    if (shared == null) return null;
    String da = date(marked);
    String db = date(original);
    boolean markedNewer;
    String by;
    if (!da.isEmpty() && !db.isEmpty() && !da.equals(db)) {
      markedNewer = da.compareTo(db) > 0;
      by = "metadata-date";
    } else if (marked.fileTime() != 0 && original.fileTime() != 0 && marked.fileTime() != original.fileTime()) {
      markedNewer = marked.fileTime() > original.fileTime();
      by = "file-time";
    } else {
      markedNewer = true;
      by = "ingestion-order";
    }
    Doc m = doc(marked);
    Doc o = doc(original);
    return markedNewer ? new Version(m, o, shared, by, marked.similarity()) : new Version(o, m, shared, by, marked.similarity());
  }

  /** The metadata date as {@link DocInfo#date()} finds it. */
  private static String date(CorpusCatalog.CorpusDoc d) {
    return new DocInfo(d.id(), d.uri(), d.title(), null, d.metadata()).date().strip();
  }

  /** The file name of a path or URI, lower-cased, without its extension and trailing version words. */
  static String stem(String pathOrUri) {
    String s = Objects.requireNonNullElse(pathOrUri, "").strip();
    int q = s.indexOf('?');
    if (q >= 0) s = s.substring(0, q);
    while (s.endsWith("/") || s.endsWith("\\")) s = s.substring(0, s.length() - 1);
    s = s.substring(Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\')) + 1).toLowerCase(Locale.ROOT);
    int dot = s.lastIndexOf('.');
    if (dot > 0) s = s.substring(0, dot);
    String stripped = VERSION_SUFFIX.matcher(s).replaceAll("");
    return stripped.isEmpty() ? s : stripped;
  }

  private static Doc doc(CorpusCatalog.CorpusDoc d) {
    return new Doc(d.id(), d.sourcePath(), d.uri(), d.title());
  }

  /** The counts of the report, for a one-line summary. */
  public Map<String, Integer> counts() {
    Map<String, Integer> m = new LinkedHashMap<>();
    m.put("documents", documents);
    m.put("exactClusters", exact.size());
    m.put("nearClusters", near.size());
    m.put("versions", versions.size());
    m.put("boilerplate", boilerplate.size());
    return m;
  }
}
