package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.ingest.IngestException;
import dev.ctxpack.ingest.JsonlLoader;
import dev.ctxpack.ingest.LoadedDocument;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The documents of a {@code POST /v1/documents} request, each read as a JSON Lines document is. */
public final class DocumentRequests {
  /** Most documents one request may carry. */
  public static final int MAX_DOCUMENTS = 1000;

  private DocumentRequests() {}

  /** {@code request}'s {@code "documents"}; errors name {@code documents[i]} and the field. */
  public static List<LoadedDocument> documents(ObjectNode request) {
    JsonNode arr = request.get("documents");
    if (arr == null || !arr.isArray()) throw new IllegalArgumentException("field 'documents' must be a list of documents");
    if (arr.isEmpty()) throw new IllegalArgumentException("field 'documents' is empty");
    if (arr.size() > MAX_DOCUMENTS) {
      throw new IllegalArgumentException("field 'documents' holds " + arr.size() + " documents; at most " + MAX_DOCUMENTS
          + " per request");
    }
    List<LoadedDocument> out = new ArrayList<>(arr.size());
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < arr.size(); i++) {
      String where = "documents[" + i + "]";
      JsonNode d = arr.get(i);
      if (!d.isObject()) throw new IllegalArgumentException(where + " must be an object");
      LoadedDocument ld;
      try {
        ld = JsonlLoader.fromJson(d, where);
      } catch (IngestException e) {
        throw new IllegalArgumentException(e.getMessage());
      }
      if (ld.id() == null || ld.id().isBlank()) throw new IllegalArgumentException(where + ": field 'id' must be given");
      if (!ids.add(ld.id())) throw new IllegalArgumentException(where + ": id '" + ld.id() + "' appears twice in this request");
      out.add(ld);
    }
    return out;
  }
}
