package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.MemoryViews;
import dev.ctxpack.assemble.Memory;
import java.util.List;

/**
 * {@code POST}, {@code GET /v1/memories} and {@code DELETE /v1/memories/<id>}: a user's memories in
 * the caller's collection's memory store. Adding and deleting need a key with {@code "write": true}
 * and run on the collection's writer thread. A key reaches only the users it acts for ({@link
 * Caller#actsFor}, the tenants file's {@code "users"}): any other user, whether or not anyone has
 * memories under that id, is 404 {@code not_found} with the same answer ({@link #requireUser}).
 */
final class MemoryRoutes {
  /** The message of the 404 for a user the API key does not act for. */
  static final String NO_SUCH_USER = "no such user for this API key";

  private MemoryRoutes() {}

  /**
   * {@code POST /v1/memories}: {@code {"collection"?, "user", "kind": "fact"|"episode", "text"}} into
   * the collection's memory store, durable when answered; the answer is the memory ({@code id, user,
   * kind, text, created}) plus {@code "collection"}.
   */
  static Handler add(ServeCollections collections) {
    return (caller, request) -> {
      requireWrite(caller);
      Collection c = collections.collection(caller, request);
      String user = requireUser(caller, field(request, "user"));
      Memory.Kind kind = Memory.Kind.parse(field(request, "kind"));
      String text = field(request, "text");
      ObjectNode out = MemoryViews.view(c.addMemory(user, kind, text), false);
      out.put("collection", c.name);
      return out;
    };
  }

  /**
   * {@code GET /v1/memories?user=U[&collection=C]}: the user's memories, oldest first; with {@code
   * &query=Q[&k=N]} (k default 5), what a session for Q recalls, with scores. Answer: {@code {"user",
   * "collection", "memories": [...]}}.
   */
  static Handler list(ServeCollections collections) {
    return (caller, request) -> {
      Collection c = collections.collection(caller, request);
      String user = requireUser(caller, field(request, "user"));
      String query = request.path("query").asText("");
      List<Memory> ms;
      boolean recall = !query.isBlank();
      if (recall) {
        int k;
        try {
          k = Integer.parseInt(request.path("k").asText("5").strip());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("parameter 'k' must be a whole number, was '" + request.path("k").asText() + "'");
        }
        ms = c.memory().recall(user, query, k);
      } else {
        ms = c.memory().list(user);
      }
      ObjectNode out = MemoryViews.list(user, ms, recall);
      out.put("collection", c.name);
      return out;
    };
  }

  /** {@code DELETE /v1/memories/<id>?user=U[&collection=C]}: removes the user's memory, or 404 if the user has none of that id. */
  static Handler delete(ServeCollections collections) {
    return (caller, request) -> {
      requireWrite(caller);
      Collection c = collections.collection(caller, request);
      String user = requireUser(caller, field(request, "user"));
      String id = request.path("id").asText("");
      if (id.isBlank()) throw new IllegalArgumentException("the memory id is missing: DELETE /v1/memories/ID?user=U");
      if (!c.deleteMemory(user, id)) {
        String shown = id.length() > 64 ? id.substring(0, 64) + "…" : id;
        throw new HttpError(404, "not_found", "user has no memory '" + shown + "' in collection '" + c.name + "'");
      }
      ObjectNode out = Json.object();
      out.put("deleted", id).put("user", user).put("collection", c.name);
      return out;
    };
  }

  /** A request's required text field (a POST body's or a query parameter), or 400 naming it. */
  private static String field(ObjectNode request, String name) {
    JsonNode v = request.get(name);
    if (v == null || v.isNull()) throw new IllegalArgumentException("field '" + name + "' is missing");
    if (!v.isTextual() || v.asText().isBlank()) throw new IllegalArgumentException("field '" + name + "' must be a non-empty string");
    return v.asText();
  }

  /**
   * {@code user}, if {@code caller} acts for it; else 404 {@code not_found}, byte for byte the same
   * answer for every such user (it does not echo the id), with memories or without, so a key cannot
   * learn which user ids exist.
   */
  static String requireUser(Caller caller, String user) {
    if (caller.actsFor(user)) return user;
    throw new HttpError(404, "not_found", NO_SUCH_USER);
  }

  private static void requireWrite(Caller caller) {
    if (!caller.write()) {
      throw new HttpError(403, "forbidden", "this API key may not add or delete memories (its \"write\" is not true)");
    }
  }
}
