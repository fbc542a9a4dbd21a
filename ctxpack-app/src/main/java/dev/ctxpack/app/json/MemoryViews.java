package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.assemble.Memory;
import java.util.List;

/** The JSON of a user's memories, shared by {@code ctxpack memory} and the {@code /v1/memories} routes. */
public final class MemoryViews {
  private MemoryViews() {}

  /** {@code {"user": ..., "memories": [...]}}, each with its {@code score} when {@code scores}. */
  public static ObjectNode list(String user, List<Memory> ms, boolean scores) {
    ObjectNode o = Json.object();
    o.put("user", user);
    ArrayNode a = o.putArray("memories");
    for (Memory m : ms) a.add(view(m, scores));
    return o;
  }

  /** One memory as JSON: {@code {"id", "user", "kind", "text", "created"}} and {@code "score"} when recalled. */
  public static ObjectNode view(Memory m, boolean score) {
    ObjectNode o = Json.object();
    o.put("id", m.id()).put("user", m.user()).put("kind", m.kind().key()).put("text", m.text()).put("created", m.created());
    if (score) o.put("score", m.score());
    return o;
  }
}
