package dev.ctxpack.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * JSON Lines, BEIR style: one document per line with {@code _id} or {@code id}, optional {@code
 * title}, {@code text} (required), optional {@code metadata} object, {@code acl} list and {@code
 * url}/{@code uri}. Blank lines are skipped. The whole file is parsed before anything is returned,
 * so a bad line fails the file (naming the line) and nothing of it is indexed; {@link #loadSkipping}
 * ({@code --skip-bad-lines}) instead skips each line that is not valid UTF-8, not JSON, not an
 * object or not a valid document, reports it, and returns the others.
 */
public final class JsonlLoader implements Loader {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A JSON Lines file is a corpus export: streamed, with the size cap applied per document. */
  @Override
  public boolean container() {
    return true;
  }

  @Override
  public List<String> extensions() {
    return List.of(".jsonl", ".ndjson");
  }

  @Override
  public List<LoadedDocument> load(Path file) throws IngestException {
    List<LoadedDocument> out = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (line.isBlank()) continue;
        out.add(parse(file, n, line));
      }
    } catch (NoSuchFileException e) {
      throw new IngestException(file + ": no such file");
    } catch (java.nio.charset.MalformedInputException e) {
      throw new IngestException(file + ": not valid UTF-8");
    } catch (IOException e) {
      throw new IngestException(file + ": cannot read: " + e.getMessage(), e);
    }
    return out;
  }

  /**
   * The documents of every good line; each bad line is reported to {@code skipped} with its number
   * (counted as {@link BufferedReader#readLine} counts: LF, CR LF or a lone CR ends a line) and its
   * error. A file that cannot be read at all still fails.
   */
  @Override
  public List<LoadedDocument> loadSkipping(Path file, Consumer<IngestSummary.BadLine> skipped) throws IngestException {
    List<LoadedDocument> out = new ArrayList<>();
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    String prefix = file + ":";
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      int n = 0;
      int b = in.read();
      while (b != -1) {
        line.reset();
        while (b != -1 && b != '\n' && b != '\r') {
          line.write(b);
          b = in.read();
        }
        if (b == '\r') {
          b = in.read();
          if (b == '\n') b = in.read();
        } else if (b == '\n') {
          b = in.read();
        }
        n++;
        String text;
        try {
          text = utf8.decode(ByteBuffer.wrap(line.toByteArray())).toString();
        } catch (CharacterCodingException e) {
          skipped.accept(new IngestSummary.BadLine(file.toString(), n, "not valid UTF-8"));
          continue;
        }
        if (text.isBlank()) continue;
        try {
          out.add(parse(file, n, text));
        } catch (IngestException e) {
          String m = e.getMessage();
          String at = prefix + n + ": ";
          skipped.accept(new IngestSummary.BadLine(file.toString(), n, m.startsWith(at) ? m.substring(at.length()) : m));
        }
      }
    } catch (NoSuchFileException e) {
      throw new IngestException(file + ": no such file");
    } catch (IOException e) {
      throw new IngestException(file + ": cannot read: " + e.getMessage(), e);
    }
    return out;
  }

  static LoadedDocument parse(Path file, int lineNo, String line) throws IngestException {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IngestException(file + ":" + lineNo + ": invalid JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw new IngestException(file + ":" + lineNo + ": expected a JSON object");
    }
    return fromJson(node, file + ":" + lineNo);
  }

  /**
   * One document of a JSON object: {@code _id} or {@code id}, {@code title}, {@code text}
   * (required), {@code metadata} (an object), {@code acl} (a list of access labels, checked by
   * {@link dev.ctxpack.index.Access#checkLabel}), {@code url} or {@code uri}. Errors start with
   * {@code where} (a file and line, or a request field) and name the field.
   */
  public static LoadedDocument fromJson(JsonNode node, String where) throws IngestException {
    String id = text(node, "_id", where);
    if (id == null) id = text(node, "id", where);
    if (id != null && id.isBlank()) throw new IngestException(where + ": field 'id' is blank");
    String text = text(node, "text", where);
    if (text == null) throw new IngestException(where + ": missing field 'text'");
    String title = text(node, "title", where);
    String uri = text(node, "url", where);
    if (uri == null) uri = text(node, "uri", where);
    Map<String, String> meta = new TreeMap<>();
    JsonNode m = node.get("metadata");
    if (m != null && !m.isNull()) {
      if (!m.isObject()) throw new IngestException(where + ": field 'metadata' must be an object");
      Iterator<Map.Entry<String, JsonNode>> it = m.fields();
      while (it.hasNext()) {
        var e = it.next();
        meta.put(e.getKey(), e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString());
      }
    }
    JsonNode acl = node.get("acl");
    if (acl != null && !acl.isNull()) {
      if (!acl.isArray()) throw new IngestException(where + ": field 'acl' must be a list of strings");
      List<String> labels = new ArrayList<>();
      for (JsonNode a : acl) {
        if (!a.isTextual()) throw new IngestException(where + ": field 'acl' must be a list of strings");
        labels.add(a.asText());
      }
      try {
        meta.put(dev.ctxpack.index.Access.METADATA_KEY, dev.ctxpack.index.Access.join(labels));
      } catch (IllegalArgumentException e) {
        throw new IngestException(where + ": field 'acl': " + e.getMessage());
      }
    }
    return new LoadedDocument(id, uri == null ? "" : uri, title == null ? "" : title, text, meta, List.of());
  }

  private static String text(JsonNode node, String field, String where) throws IngestException {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) return null;
    if (!v.isValueNode()) {
      throw new IngestException(where + ": field '" + field + "' must be a string");
    }
    return v.asText();
  }
}
