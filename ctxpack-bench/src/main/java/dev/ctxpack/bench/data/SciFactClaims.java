package dev.ctxpack.bench.data;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * SciFact's claim files ({@code claims_train.jsonl}): one JSON object per line with {@code id},
 * {@code claim} and {@code cited_doc_ids} (ids of the corpus). Errors name the file and line.
 */
public final class SciFactClaims {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One claim and the documents it cites. */
  public record Claim(String id, String text, Set<String> citedDocIds) {
    public Claim {
      citedDocIds = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(citedDocIds));
    }
  }

  private SciFactClaims() {}

  public static List<Claim> load(Path file) throws IOException {
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return read(r, file.toString());
    }
  }

  public static List<Claim> read(Reader in, String source) throws IOException {
    List<Claim> out = new ArrayList<>();
    Set<String> ids = new java.util.HashSet<>();
    BeirLoader.forEachObject(in, source, (node, n) -> {
      JsonNode id = node.get("id");
      JsonNode claim = node.get("claim");
      if (id == null || !id.isValueNode()) throw new IOException(source + ":" + n + ": missing field 'id'");
      if (claim == null || !claim.isTextual()) throw new IOException(source + ":" + n + ": missing string field 'claim'");
      if (!ids.add(id.asText())) throw new IOException(source + ":" + n + ": claim id '" + id.asText() + "' appears twice");
      Set<String> cited = new LinkedHashSet<>();
      JsonNode docs = node.get("cited_doc_ids");
      if (docs != null && !docs.isNull()) {
        if (!docs.isArray()) throw new IOException(source + ":" + n + ": 'cited_doc_ids' must be an array");
        docs.forEach(d -> cited.add(d.asText()));
      }
      out.add(new Claim(id.asText(), claim.asText(), cited));
    });
    return out;
  }
}
