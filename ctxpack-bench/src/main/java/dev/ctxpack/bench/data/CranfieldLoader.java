package dev.ctxpack.bench.data;

import dev.ctxpack.eval.Judgments;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Cranfield collection in SMART format: {@code cran.all.1400}, {@code cran.qry} and {@code
 * cranqrel}.
 *
 * <ul>
 *   <li>A record starts with {@code .I id}; the lines after a field marker ({@code .T} title,
 *       {@code .A} authors, {@code .B} bibliography, {@code .W} text) belong to that field until the
 *       next marker. Lines are joined with single spaces and runs of white space collapsed (the
 *       line breaks are only wrapping).
 *   <li>The file has a few corrupted records: a marker of a field the record already has (e.g. a
 *       second {@code .A} and {@code .B} in the middle of document 240's abstract, a second {@code
 *       .W} in 576) does not switch fields; its line is dropped and the text stays in the current
 *       field. Records 471 and 995 are empty.
 *   <li>Queries get the ids {@code 1..n} by their position in {@code cran.qry}, because the
 *       judgment rows number them that way, not by the {@code .I} ids written there (001, 002,
 *       004...).
 *   <li>Judgments {@code query doc grade}: grades follow Cleverdon (1 = complete answer ... 4 =
 *       minimum interest) and map to gains 1→4, 2→3, 3→2, 4→1; 5 (no interest) → 0. Rows graded
 *       -1 (undefined by the readme; each query has one) are dropped.
 * </ul>
 */
public final class CranfieldLoader {
  private static final Set<String> FIELDS = Set.of(".T", ".A", ".B", ".W");

  private CranfieldLoader() {}

  public static Dataset load(Path dir) throws IOException {
    Path docs = dir.resolve("cran.all.1400");
    Path qry = dir.resolve("cran.qry");
    Path rel = dir.resolve("cranqrel");
    try (Reader d = Files.newBufferedReader(docs, StandardCharsets.US_ASCII);
        Reader q = Files.newBufferedReader(qry, StandardCharsets.US_ASCII);
        Reader r = Files.newBufferedReader(rel, StandardCharsets.US_ASCII)) {
      List<CorpusDoc> corpus = readDocuments(d, docs.toString());
      Map<String, String> queries = readQueries(q, qry.toString());
      return new Dataset("cranfield", corpus, queries, readQrels(r, rel.toString(), queries.size()));
    }
  }

  /** Documents: id from {@code .I}, title from {@code .T}, text from {@code .W}. */
  public static List<CorpusDoc> readDocuments(Reader in, String source) throws IOException {
    List<CorpusDoc> out = new ArrayList<>();
    for (Map<String, String> rec : records(in, source)) {
      out.add(new CorpusDoc(rec.get(".I"), rec.getOrDefault(".T", ""), rec.getOrDefault(".W", "")));
    }
    return out;
  }

  /** Queries in file order, keyed by their 1-based position (as the judgments number them). */
  public static Map<String, String> readQueries(Reader in, String source) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    int position = 0;
    for (Map<String, String> rec : records(in, source)) {
      position++;
      String text = rec.getOrDefault(".W", "");
      if (text.isBlank()) throw new IOException(source + ": query " + rec.get(".I") + " (position " + position + ") has no text");
      out.put(Integer.toString(position), text);
    }
    return out;
  }

  /**
   * Judgments from {@code cranqrel} rows {@code query doc grade}, with queries numbered 1..{@code
   * queryCount} by position; gains as in the class comment.
   */
  public static Map<String, Judgments> readQrels(Reader in, String source, int queryCount) throws IOException {
    Map<String, Map<String, Integer>> gains = new TreeMap<>();
    BufferedReader r = new BufferedReader(in);
    String line;
    int n = 0;
    while ((line = r.readLine()) != null) {
      n++;
      if (line.isBlank()) continue;
      String[] f = line.trim().split("\\s+");
      if (f.length != 3) throw new IOException(source + ":" + n + ": expected 'query doc grade', got '" + line.strip() + "'");
      int q;
      int grade;
      try {
        q = Integer.parseInt(f[0]);
        Integer.parseInt(f[1]);
        grade = Integer.parseInt(f[2]);
      } catch (NumberFormatException e) {
        throw new IOException(source + ":" + n + ": expected three integers, got '" + line.strip() + "'");
      }
      if (q < 1 || q > queryCount) {
        throw new IOException(source + ":" + n + ": query number " + q + " is outside 1.." + queryCount);
      }
      if (grade == -1) continue;
      int gain = switch (grade) {
        case 1 -> 4;
        case 2 -> 3;
        case 3 -> 2;
        case 4 -> 1;
        case 5 -> 0;
        default -> throw new IOException(source + ":" + n + ": grade " + grade + " is not one of -1, 1..5");
      };
      gains.computeIfAbsent(Integer.toString(q), k -> new HashMap<>()).merge(f[1], gain, Math::max);
    }
    Map<String, Judgments> out = new TreeMap<>();
    gains.forEach((q, g) -> out.put(q, Judgments.of(g)));
    return out;
  }

  /** SMART records as field marker to joined text; {@code .I} holds the id. */
  static List<Map<String, String>> records(Reader in, String source) throws IOException {
    List<Map<String, String>> out = new ArrayList<>();
    BufferedReader r = new BufferedReader(in);
    Map<String, StringBuilder> rec = null;
    Set<String> seen = new HashSet<>();
    String field = null;
    String line;
    int n = 0;
    while ((line = r.readLine()) != null) {
      n++;
      String t = line.strip();
      if (t.startsWith(".I ") || t.equals(".I")) {
        if (rec != null) out.add(finish(rec));
        String id = t.substring(2).trim();
        if (id.isEmpty()) throw new IOException(source + ":" + n + ": record without an id after .I");
        rec = new LinkedHashMap<>();
        rec.put(".I", new StringBuilder(id));
        seen.clear();
        field = null;
        continue;
      }
      if (FIELDS.contains(t)) {
        if (rec == null) throw new IOException(source + ":" + n + ": field " + t + " before the first .I");
        if (seen.add(t)) {
          field = t;
          rec.put(t, new StringBuilder());
        }
        // A repeated marker is corruption: stay in the current field.
        continue;
      }
      if (t.isEmpty()) continue;
      if (rec == null || field == null) {
        throw new IOException(source + ":" + n + ": text outside a field: '" + t + "'");
      }
      StringBuilder sb = rec.get(field);
      if (sb.length() > 0) sb.append(' ');
      sb.append(t);
    }
    if (rec != null) out.add(finish(rec));
    return out;
  }

  private static Map<String, String> finish(Map<String, StringBuilder> rec) {
    Map<String, String> m = new LinkedHashMap<>();
    rec.forEach((k, v) -> m.put(k, v.toString().replaceAll("\\s+", " ").trim()));
    return m;
  }
}
