package dev.ctxpack.bench.data;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * Tab-separated records with CSV-style quoting, as MRPC writes them: a field that starts with
 * {@code "} runs to the next {@code "} not doubled, and may hold tabs, line breaks and doubled
 * quotes ({@code ""} for one {@code "}); a field that does not start with {@code "} is taken as it
 * is, quotes included. Records end at {@code \n}, {@code \r\n} or {@code \r} outside quotes; blank
 * lines are skipped. Errors name the source and line.
 */
public final class QuotedTsv {
  /** One record's fields and the line it starts on (1-based). */
  public record Row(int line, List<String> fields) {}

  private QuotedTsv() {}

  public static List<Row> read(Reader in, String source) throws IOException {
    StringBuilder all = new StringBuilder();
    char[] buf = new char[8192];
    int n;
    while ((n = in.read(buf)) > 0) all.append(buf, 0, n);
    return parse(all, source);
  }

  static List<Row> parse(CharSequence s, String source) throws IOException {
    List<Row> rows = new ArrayList<>();
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    int line = 1;
    int rowLine = 1;
    int i = 0;
    int len = s.length();
    if (len > 0 && s.charAt(0) == '\uFEFF') i = 1;
    boolean fieldStart = true;
    while (i < len) {
      char c = s.charAt(i);
      if (fieldStart && c == '"') {
        int openLine = line;
        i++;
        while (true) {
          if (i >= len) throw new IOException(source + ":" + openLine + ": quoted field never closed");
          char q = s.charAt(i);
          if (q == '"') {
            if (i + 1 < len && s.charAt(i + 1) == '"') {
              field.append('"');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (q == '\n' || (q == '\r' && (i + 1 >= len || s.charAt(i + 1) != '\n'))) line++;
          field.append(q);
          i++;
        }
        if (i < len && s.charAt(i) != '\t' && s.charAt(i) != '\n' && s.charAt(i) != '\r') {
          throw new IOException(source + ":" + line + ": text after the closing quote of a field: '"
              + s.subSequence(i, Math.min(len, i + 20)) + "'");
        }
        fieldStart = false;
        continue;
      }
      if (c == '\t') {
        fields.add(field.toString());
        field.setLength(0);
        fieldStart = true;
        i++;
      } else if (c == '\n' || c == '\r') {
        fields.add(field.toString());
        field.setLength(0);
        if (!(fields.size() == 1 && fields.get(0).isEmpty())) rows.add(new Row(rowLine, List.copyOf(fields)));
        fields.clear();
        fieldStart = true;
        i += c == '\r' && i + 1 < len && s.charAt(i + 1) == '\n' ? 2 : 1;
        line++;
        rowLine = line;
      } else {
        field.append(c);
        fieldStart = false;
        i++;
      }
    }
    if (!fieldStart || !fields.isEmpty() || field.length() > 0) {
      fields.add(field.toString());
      if (!(fields.size() == 1 && fields.get(0).isEmpty())) rows.add(new Row(rowLine, List.copyOf(fields)));
    }
    return rows;
  }
}
