package dev.ctxpack.springai;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.model.Source;
import dev.ctxpack.retrieve.GivenCandidates;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.ai.document.Document;

/**
 * The metadata keys ctxpack reads from Spring AI {@link Document}s and writes on the ones it returns,
 * and the conversions both ways.
 *
 * <p><b>Read</b> (all optional): {@link #DOC_ID} and {@link #START}, the document a chunk belongs to
 * and the character offset of the chunk in it. With both, overlapping windows of one document are
 * stitched into one passage; without an offset, each {@code Document} is a document of its own (its
 * id), so two chunks are never taken for windows of one text they may not share. {@code title}
 * gives the title; {@link #URI}, else {@code source}, else {@code url}, the URI. Every other
 * metadata value is kept as text on the candidate (for the template and the trace), never used to
 * decide identity: duplicates are found by content.
 *
 * <p><b>Written</b> on each returned {@code Document} (one per ctxpack source): {@link #LABEL}
 * ({@code S1}), {@link #DOC_IDS} (the documents its text came from, every merged copy included),
 * {@link #SPANS} ({@code docId:start-end} of each copy), {@link #MERGED_IDS} (the ids of the input
 * {@code Document}s merged into it), {@link #PASSAGE} (the id the trace names it by), {@code title},
 * {@link #URI}, and {@link #PACKAGE}: the whole {@link ContextPackage} (prompt, budget, trace,
 * conflicts) the source belongs to, one instance shared by the documents of one call. Metadata of the
 * first input document merged is copied over unless a ctxpack key replaces it.
 */
public final class CtxpackDocuments {
  /** Input: the id of the document a chunk was cut from (stitching needs it with {@link #START}). */
  public static final String DOC_ID = "ctxpack_doc_id";
  /** Input: the character offset of the chunk in its document (an integer, or its decimal text). */
  public static final String START = "ctxpack_start";
  /** Input and output: the document's URI. */
  public static final String URI = "ctxpack_uri";
  /** Output: the source's label in the prompt, {@code S1}, {@code S2}... */
  public static final String LABEL = "ctxpack_label";
  /** Output: the documents the source's text came from ({@code List<String>}, first the kept one). */
  public static final String DOC_IDS = "ctxpack_doc_ids";
  /** Output: where each copy lies, {@code docId:start-end} ({@code List<String>}). */
  public static final String SPANS = "ctxpack_spans";
  /** Output: the ids of the input {@code Document}s merged into the source ({@code List<String>}). */
  public static final String MERGED_IDS = "ctxpack_merged_ids";
  /** Output: the passage id the trace's decisions name the source by. */
  public static final String PASSAGE = "ctxpack_passage";
  /** Output: the {@link ContextPackage} of the call (shared instance). */
  public static final String PACKAGE = "ctxpack_package";

  private CtxpackDocuments() {}

  /** The package a document returned by ctxpack belongs to, or empty for any other document. */
  public static Optional<ContextPackage> packageOf(Document d) {
    Object p = d == null ? null : d.getMetadata().get(PACKAGE);
    return p instanceof ContextPackage cp ? Optional.of(cp) : Optional.empty();
  }

  /** The package shared by {@code docs} when every one of them came from the same ctxpack call. */
  public static Optional<ContextPackage> packageOf(List<Document> docs) {
    if (docs == null || docs.isEmpty()) return Optional.empty();
    Optional<ContextPackage> first = packageOf(docs.get(0));
    if (first.isEmpty()) return first;
    for (Document d : docs) {
      if (packageOf(d).orElse(null) != first.get()) return Optional.empty();
    }
    return first;
  }

  /**
   * Candidates for {@code docs}, best first as given (a document's score is used when every document
   * has one, else its rank). Ids are the documents' ids, made unique ({@code id#2}) when repeated.
   *
   * @throws IllegalArgumentException naming the document whose text is empty or whose {@link #START}
   *     is not a non-negative integer
   */
  public static List<Candidate> candidates(List<Document> docs) {
    boolean scored = docs.stream().allMatch(d -> d.getScore() != null && Double.isFinite(d.getScore()));
    Map<String, Integer> seen = new HashMap<>();
    List<Candidate> out = new ArrayList<>(docs.size());
    for (int i = 0; i < docs.size(); i++) {
      Document d = docs.get(i);
      if (d == null) throw new IllegalArgumentException("documents[" + i + "] is null");
      String text = d.getText();
      if (text == null || text.isBlank()) {
        throw new IllegalArgumentException("document " + d.getId() + " (documents[" + i + "]) has no text");
      }
      int n = seen.merge(d.getId(), 1, Integer::sum);
      String id = n == 1 ? d.getId() : d.getId() + "#" + n;
      Map<String, Object> md = d.getMetadata();
      Integer start = start(md.get(START), d.getId());
      String docId = start != null && md.get(DOC_ID) != null ? String.valueOf(md.get(DOC_ID)) : id;
      double score = scored ? d.getScore() : 1.0 - (double) i / docs.size();
      out.add(GivenCandidates.candidate(id, docId, text, start == null ? 0 : start, string(md.get("title")),
          uri(md), strings(md), score));
    }
    return out;
  }

  /**
   * One {@link Document} per source of {@code p}, in prompt order, with the output keys set. {@code
   * inputs} are the documents given, by candidate id (for their metadata and ids).
   */
  static List<Document> documents(ContextPackage p, Map<String, Document> inputs) {
    List<Document> out = new ArrayList<>(p.sources().size());
    for (Source s : p.sources()) {
      List<String> docIds = new ArrayList<>();
      List<String> spans = new ArrayList<>();
      List<String> merged = new ArrayList<>();
      for (Source.DocSpan sp : s.spans()) {
        if (!docIds.contains(sp.docId())) docIds.add(sp.docId());
        spans.add(sp.docId() + ":" + sp.start() + "-" + sp.end());
        Document in = inputs.get(sp.chunkId());
        String mid = in != null ? in.getId() : sp.chunkId();
        if (!mid.isEmpty() && !merged.contains(mid)) merged.add(mid);
      }
      Map<String, Object> md = new LinkedHashMap<>();
      Document first = merged.isEmpty() ? null : inputs.get(s.spans().get(0).chunkId());
      if (first != null) md.putAll(first.getMetadata());
      md.remove(PACKAGE);
      md.put(LABEL, s.label());
      md.put(DOC_IDS, List.copyOf(docIds));
      md.put(SPANS, List.copyOf(spans));
      md.put(MERGED_IDS, List.copyOf(merged));
      md.put(PASSAGE, s.passage());
      if (s.title() != null && !s.title().isEmpty()) md.put("title", s.title());
      if (s.uri() != null && !s.uri().isEmpty()) md.put(URI, s.uri());
      md.put(PACKAGE, p);
      out.add(Document.builder().id(s.label() + ":" + (s.passage().isEmpty() ? s.docId() : s.passage()))
          .text(s.text()).metadata(md).build());
    }
    return out;
  }

  private static Integer start(Object v, String id) {
    if (v == null) return null;
    try {
      int s = v instanceof Number n ? Math.toIntExact(n.longValue()) : Integer.parseInt(v.toString().trim());
      if (s < 0) throw new NumberFormatException();
      return s;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("metadata " + START + " of document " + id
          + " must be a non-negative integer offset, was '" + v + "'");
    }
  }

  private static String uri(Map<String, Object> md) {
    for (String k : List.of(URI, "source", "url")) {
      if (md.get(k) != null) return md.get(k).toString();
    }
    return "";
  }

  private static String string(Object o) {
    return o == null ? "" : o.toString();
  }

  private static Map<String, String> strings(Map<String, Object> md) {
    Map<String, String> out = new LinkedHashMap<>();
    md.forEach((k, v) -> {
      if (v instanceof CharSequence || v instanceof Number || v instanceof Boolean) out.put(k, v.toString());
    });
    return out;
  }
}
