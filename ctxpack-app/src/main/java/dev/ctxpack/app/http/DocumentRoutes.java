package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.json.DocumentRequests;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.Views;
import dev.ctxpack.index.IndexLockedException;
import dev.ctxpack.ingest.IngestSummary;
import dev.ctxpack.ingest.LoadedDocument;
import java.util.List;

/**
 * {@code POST /v1/documents} and {@code DELETE /v1/documents/<id>}: documents into and out of the
 * caller's collection, each request one atomic commit on the collection's writer thread. The
 * caller's key must have {@code "write": true}.
 */
final class DocumentRoutes {
  private DocumentRoutes() {}

  /**
   * {@code POST /v1/documents}: {@code {"collection"?, "documents": [{"id", "title"?, "text",
   * "uri"?, "metadata"?, "acl"?}]}} into the collection; the answer is the ingest summary plus
   * {@code "collection"}.
   */
  static Handler add(ServeCollections collections) {
    return (caller, request) -> {
      requireWrite(caller);
      Collection c = collections.collection(caller, request);
      List<LoadedDocument> docs = DocumentRequests.documents(request);
      IngestSummary s;
      try {
        s = c.ingest(docs);
      } catch (IndexLockedException e) {
        throw locked(c);
      }
      ObjectNode out = Views.ingest(s);
      out.put("collection", c.name);
      return out;
    };
  }

  /** {@code DELETE /v1/documents/<id>?collection=NAME}: removes one document, or 404 if the collection has none of that id. */
  static Handler remove(ServeCollections collections) {
    return (caller, request) -> {
      requireWrite(caller);
      Collection c = collections.collection(caller, request);
      String id = request.path("id").asText("");
      if (id.isBlank()) throw new IllegalArgumentException("the document id is missing: DELETE /v1/documents/ID");
      int removed;
      try {
        removed = c.remove(id);
      } catch (IndexLockedException e) {
        throw locked(c);
      }
      if (removed == 0) {
        String shown = id.length() > 64 ? id.substring(0, 64) + "…" : id;
        throw new HttpError(404, "not_found", "no document '" + shown + "' in collection '" + c.name + "'");
      }
      ObjectNode out = Json.object();
      out.put("removed", removed).put("id", id).put("collection", c.name);
      return out;
    };
  }

  private static HttpError locked(Collection c) {
    return new HttpError(503, "unavailable", "collection '" + c.name
        + "' is being written by another process (e.g. ctxpack ingest); try again when it is done");
  }

  private static void requireWrite(Caller caller) {
    if (!caller.write()) {
      throw new HttpError(403, "forbidden", "this API key may not add or remove documents (its \"write\" is not true)");
    }
  }
}
