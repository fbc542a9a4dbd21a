package dev.ctxpack.bench.data;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Microsoft Research Paraphrase Corpus ({@code msr_paraphrase_*.txt}): a header line, then
 * {@code Quality <TAB> #1 ID <TAB> #2 ID <TAB> #1 String <TAB> #2 String}, with {@link QuotedTsv}
 * quoting (a sentence with a {@code "} is quoted and its quotes doubled). Quality 1 is a paraphrase.
 */
public final class MrpcLoader {
  private MrpcLoader() {}

  public static List<TextPair> load(Path file) throws IOException {
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return read(r, file.toString(), file.getFileName().toString());
    }
  }

  public static List<TextPair> read(Reader in, String source, String set) throws IOException {
    List<QuotedTsv.Row> rows = QuotedTsv.read(in, source);
    if (rows.isEmpty()) throw new IOException(source + ": empty file");
    List<String> header = rows.get(0).fields();
    if (header.size() != 5 || !header.get(0).strip().toLowerCase(Locale.ROOT).equals("quality")) {
      throw new IOException(source + ":1: expected the header 'Quality<TAB>#1 ID<TAB>#2 ID<TAB>#1 String<TAB>#2 String', got "
          + header);
    }
    List<TextPair> out = new ArrayList<>(rows.size() - 1);
    for (QuotedTsv.Row row : rows.subList(1, rows.size())) {
      List<String> f = row.fields();
      if (f.size() != 5) throw new IOException(source + ":" + row.line() + ": expected 5 fields, got " + f.size());
      String q = f.get(0).strip();
      if (!q.equals("0") && !q.equals("1")) {
        throw new IOException(source + ":" + row.line() + ": quality must be 0 or 1, was '" + q + "'");
      }
      out.add(new TextPair("mrpc:" + f.get(1).strip() + "-" + f.get(2).strip(), set, f.get(3).strip(), f.get(4).strip(), q,
          q.equals("1"), Double.NaN));
    }
    return out;
  }
}
