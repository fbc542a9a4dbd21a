package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.assemble.ToolSpec;
import dev.ctxpack.assemble.ToolSpec.ToolParameter;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolSchemasTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String WEATHER = """
      {"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city",
        "parameters": {"type": "object", "required": ["city"], "properties": {
          "city": {"type": "string", "description": "City name"},
          "units": {"type": "string", "enum": ["metric", "imperial"], "title": "Unit system"},
          "where": {"type": "object", "properties": {"lat": {"type": "number", "description": "Latitude"}}},
          "days": {"type": "array", "items": {"type": "object", "description": "One day",
                   "properties": {"date": {"type": "string", "description": "ISO date"}}}}}}}}
      """;

  /** Verbatim from @modelcontextprotocol/server-github 2025.4.8's tools/list (MIT). */
  private static final String MCP_CREATE_ISSUE = """
      {"name":"create_issue","description":"Create a new issue in a GitHub repository","inputSchema":{"type":"object",\
      "properties":{"owner":{"type":"string"},"repo":{"type":"string"},"title":{"type":"string"},"body":{"type":"string"},\
      "assignees":{"type":"array","items":{"type":"string"}},"milestone":{"type":"number"},"labels":{"type":"array",\
      "items":{"type":"string"}}},"required":["owner","repo","title"],"additionalProperties":false,\
      "$schema":"http://json-schema.org/draft-07/schema#"}}""";

  @Test
  void openAiToolIsReadWithFlattenedParameters() {
    ToolSpec t = ToolSchemas.parse("[" + WEATHER + "]").get(0);
    assertThat(t.name()).isEqualTo("get_weather");
    assertThat(t.description()).isEqualTo("Current weather for a city");
    assertThat(t.pinned()).isFalse();
    assertThat(t.parameters()).containsExactly(
        new ToolParameter("city", "City name"),
        new ToolParameter("units", "Unit system"),
        new ToolParameter("where", ""),
        new ToolParameter("where.lat", "Latitude"),
        new ToolParameter("days", "One day"),
        new ToolParameter("days.date", "ISO date"));
  }

  @Test
  void schemaJsonIsTheCanonicalOpenAiObjectWhateverTheFormatting() throws Exception {
    ToolSpec a = ToolSchemas.parse(WEATHER).get(0);
    // the same tool, keys in another order, another layout, and in the bare form
    String reordered = """
        {"function": {"parameters": {"properties": {"days": {"items": {"properties": {"date": {"description": "ISO date",
          "type": "string"}}, "description": "One day", "type": "object"}, "type": "array"},
          "where": {"properties": {"lat": {"description": "Latitude", "type": "number"}}, "type": "object"},
          "units": {"title": "Unit system", "enum": ["metric", "imperial"], "type": "string"},
          "city": {"description": "City name", "type": "string"}}, "required": ["city"], "type": "object"},
          "description": "Current weather for a city", "name": "get_weather"}, "type": "function"}""";
    ToolSpec b = ToolSchemas.parse(reordered).get(0);
    assertThat(b.schemaJson()).isEqualTo(a.schemaJson());
    assertThat(a.schemaJson()).startsWith("{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"description\":")
        .doesNotContain(" \"").doesNotContain("\n");
    JsonNode back = JSON.readTree(a.schemaJson());
    assertThat(back.at("/function/parameters/properties/where/properties/lat/type").asText()).isEqualTo("number");
    String bare = JSON.readTree(WEATHER).get("function").toString();
    assertThat(ToolSchemas.parse(bare).get(0).schemaJson()).isEqualTo(a.schemaJson());
  }

  @Test
  void mcpToolsListResultIsRead() throws Exception {
    String result = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[" + MCP_CREATE_ISSUE + "]}}";
    ToolSpec t = ToolSchemas.parse(result).get(0);
    assertThat(t.name()).isEqualTo("create_issue");
    assertThat(t.parameters()).extracting(ToolParameter::name)
        .containsExactly("owner", "repo", "title", "body", "assignees", "milestone", "labels");
    JsonNode schema = JSON.readTree(t.schemaJson());
    assertThat(schema.at("/function/parameters/required").toString()).isEqualTo("[\"owner\",\"repo\",\"title\"]");
    assertThat(schema.at("/function/parameters/$schema").asText()).startsWith("http://json-schema.org");
    assertThat(schema.has("inputSchema")).isFalse();
    assertThat(ToolSchemas.parse("{\"tools\":[" + MCP_CREATE_ISSUE + "]}")).containsExactly(t);
  }

  @Test
  void pinnedIsReadButNotSent() {
    ToolSpec t = ToolSchemas.parse("{\"name\": \"now\", \"description\": \"The time\", \"pinned\": true}").get(0);
    assertThat(t.pinned()).isTrue();
    assertThat(t.schemaJson()).isEqualTo("{\"type\":\"function\",\"function\":{\"name\":\"now\",\"description\":\"The time\"}}");
    assertThat(t.parameters()).isEmpty();
  }

  @Test
  void openApiOperationsBecomeTools() {
    String doc = """
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
         "components": {"parameters": {"owner": {"name": "owner", "in": "path", "required": true,
                          "description": "The account owner", "schema": {"type": "string"}}},
                        "schemas": {"label": {"type": "string", "description": "A label name"}}},
         "paths": {
          "/repos/{owner}/issues": {
            "parameters": [{"$ref": "#/components/parameters/owner"}],
            "get": {"operationId": "issues/list-for-repo", "summary": "List repository issues",
                    "description": "Lists issues.", "parameters": [
                      {"name": "state", "in": "query", "schema": {"type": "string", "enum": ["open", "closed"]},
                       "description": "Issue state"},
                      {"name": "accept", "in": "header", "schema": {"type": "string"}}]},
            "post": {"summary": "Create an issue", "requestBody": {"required": true, "content": {"application/json":
                    {"schema": {"type": "object", "required": ["title"], "properties": {
                      "title": {"type": "string", "description": "The title"},
                      "labels": {"type": "array", "items": {"$ref": "#/components/schemas/label"}}}}}}}}}}}
        """;
    List<ToolSpec> tools = ToolSchemas.parse(doc);
    assertThat(tools).extracting(ToolSpec::name).containsExactly("issues_list-for-repo", "post_repos_owner_issues");
    ToolSpec list = tools.get(0);
    assertThat(list.description()).isEqualTo("List repository issues\n\nLists issues.");
    assertThat(list.parameters()).containsExactly(new ToolParameter("owner", "The account owner"),
        new ToolParameter("state", "Issue state"));
    assertThat(list.schemaJson()).contains("\"required\":[\"owner\"]").doesNotContain("accept");
    ToolSpec create = tools.get(1);
    assertThat(create.parameters()).containsExactly(new ToolParameter("owner", "The account owner"),
        new ToolParameter("title", "The title"), new ToolParameter("labels", "A label name"));
    assertThat(create.schemaJson()).contains("\"required\":[\"owner\",\"title\"]").doesNotContain("$ref");
  }

  @Test
  void aMissingNameIsNamedWithTheToolsIndex() {
    String tools = "[" + WEATHER + ", {\"type\": \"function\", \"function\": {\"description\": \"no name\"}}]";
    assertThatThrownBy(() -> ToolSchemas.parse(tools)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tool 1: \"function.name\" is missing");
  }

  @Test
  void aBadFieldIsNamedWithTheToolsName() {
    assertThatThrownBy(() -> ToolSchemas.parse("[{\"name\": \"a\"}, {\"name\": \"lookup\", \"parameters\": [1]}]"))
        .hasMessage("tool 1 (\"lookup\"): \"parameters\" must be a JSON object, was an array");
    assertThatThrownBy(() -> ToolSchemas.parse("{\"type\": \"retrieval\", \"function\": {\"name\": \"x\"}}"))
        .hasMessage("tool 0 (\"x\"): \"type\" must be \"function\", was \"retrieval\"");
    assertThatThrownBy(() -> ToolSchemas.parse("[{\"name\": 3}]"))
        .hasMessage("tool 0: \"name\" must be a string, was a number");
    assertThatThrownBy(() -> ToolSchemas.parse("\"get_weather\""))
        .hasMessageStartingWith("tools must be a JSON array of tool objects");
    assertThatThrownBy(() -> ToolSchemas.parse("[{\"name\": \"x\",}"))
        .hasMessageStartingWith("not valid JSON at line 1, column");
  }

  @Test
  void aRepeatedNameIsRefusedOnTheSecondTool() {
    String tools = "[" + WEATHER + ", {\"name\": \"other\"}, {\"name\": \"get_weather\"}]";
    assertThatThrownBy(() -> ToolSchemas.parse(tools))
        .hasMessage("tool 2 (\"get_weather\"): the name \"get_weather\" is already used by tool 0");
    assertThat(ToolSchemas.parse(tools, true).tools()).extracting(ToolSpec::name).containsExactly("get_weather", "other");
  }

  @Test
  void continuingOnErrorKeepsTheGoodTools() {
    String tools = "[" + WEATHER + ", {\"function\": {\"name\": \"\"}}, 7, " + MCP_CREATE_ISSUE + "]";
    ToolSchemas.Parsed p = ToolSchemas.parse(tools, true);
    assertThat(p.tools()).extracting(ToolSpec::name).containsExactly("get_weather", "create_issue");
    assertThat(p.problems()).extracting(ToolSchemas.Problem::index).containsExactly(1, 2);
    assertThat(p.problems().get(0).message()).isEqualTo("tool 1: \"function.name\" is blank");
    assertThat(p.problems().get(1).message()).isEqualTo("tool 2: a tool must be a JSON object, was a number");
  }

  @Test
  void openApiProblemsNameTheOperation() {
    String doc = """
        {"openapi": "3.1.0", "paths": {"/a": {"get": {"operationId": "ok"},
          "post": {"operationId": "bad", "parameters": [{"$ref": "other.yaml#/x"}]}}}}""";
    assertThatThrownBy(() -> ToolSchemas.parse(doc))
        .hasMessage("operation 1 (POST /a): \"$ref\" other.yaml#/x is not a local reference (#/...); only those are resolved");
    ToolSchemas.Parsed p = ToolSchemas.parse(doc, true);
    assertThat(p.tools()).extracting(ToolSpec::name).containsExactly("ok");
    assertThat(p.problems()).extracting(ToolSchemas.Problem::name).containsExactly("bad");
  }
}
