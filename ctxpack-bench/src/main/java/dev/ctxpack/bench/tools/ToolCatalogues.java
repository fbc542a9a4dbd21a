package dev.ctxpack.bench.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.assemble.ToolSpec;
import dev.ctxpack.ingest.ToolSchemas;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The labelled tool-selection set (see README.md beside the resources): two catalogues of real tool
 * schemas and the requests with the tools that serve them.
 *
 * <ul>
 *   <li>{@code mcp}: the tools of 12 MCP reference servers, each tool's name prefixed by its server
 *       ({@code github__create_issue}, {@code gitlab__create_issue}) as multi-server clients do, since
 *       several servers share tool names;
 *   <li>{@code github}: every operation of the issues, pulls, search and gists groups of GitHub's REST
 *       API description, read as OpenAPI 3 by {@link ToolSchemas}.
 * </ul>
 */
public final class ToolCatalogues {
  static final String RESOURCES = "/dev/ctxpack/bench/tools/";
  private static final ObjectMapper JSON = new ObjectMapper();

  private ToolCatalogues() {}

  /** One labelled request. */
  public record Request(String id, String catalogue, String lang, String text, Set<String> relevant) {}

  /** The catalogues by name, tools in their published order. */
  public static Map<String, List<ToolSpec>> catalogues() {
    Map<String, List<ToolSpec>> out = new LinkedHashMap<>();
    out.put("mcp", mcp());
    out.put("github", ToolSchemas.parse(resource("github-rest.openapi.json")));
    return out;
  }

  static List<ToolSpec> mcp() {
    try {
      JsonNode root = JSON.readTree(resource("mcp-servers.json"));
      List<ToolSpec> tools = new ArrayList<>();
      for (JsonNode server : root.get("servers")) {
        String prefix = server.get("package").asText().replace("@modelcontextprotocol/server-", "").replace('-', '_') + "__";
        for (JsonNode t : server.get("tools")) {
          ObjectNode named = t.deepCopy();
          named.put("name", prefix + t.get("name").asText());
          tools.add(ToolSchemas.tool(named));
        }
      }
      return tools;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The requests, each checked against its catalogue: an unknown tool name fails the load. */
  public static List<Request> requests(Map<String, List<ToolSpec>> catalogues) {
    List<Request> out = new ArrayList<>();
    String[] lines = resource("requests.jsonl").split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].isBlank()) continue;
      try {
        JsonNode n = JSON.readTree(lines[i]);
        Set<String> relevant = new java.util.LinkedHashSet<>();
        n.get("relevant").forEach(r -> relevant.add(r.asText()));
        Request r = new Request(n.get("id").asText(), n.get("catalogue").asText(), n.get("lang").asText(), n.get("request").asText(), relevant);
        List<ToolSpec> tools = catalogues.get(r.catalogue());
        if (tools == null) throw new IllegalArgumentException("unknown catalogue " + r.catalogue());
        Set<String> names = tools.stream().map(ToolSpec::name).collect(Collectors.toSet());
        for (String name : relevant) {
          if (!names.contains(name)) throw new IllegalArgumentException("tool " + name + " is not in catalogue " + r.catalogue());
        }
        out.add(r);
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException("requests.jsonl line " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  static String resource(String name) {
    try (InputStream in = ToolCatalogues.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) throw new IllegalStateException("resource " + RESOURCES + name + " is missing from the jar");
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
