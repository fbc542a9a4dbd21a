package dev.ctxpack.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctxpack.app.json.Json;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the CLI in-process ({@link Main#run}) and captures its streams and exit code. */
public record CliRunner(int code, String out, String err) {
  public static CliRunner run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
    return new CliRunner(code, out.toString(), err.toString());
  }

  public static CliRunner runWithStdin(String stdin, String... args) {
    InputStream old = System.in;
    try {
      System.setIn(new java.io.ByteArrayInputStream(stdin.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      return run(args);
    } finally {
      System.setIn(old);
    }
  }

  public JsonNode json() {
    try {
      return Json.MAPPER.readTree(out);
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + out + "\nstderr: " + err, e);
    }
  }

  public java.util.List<JsonNode> jsonLines() {
    java.util.List<JsonNode> out2 = new java.util.ArrayList<>();
    for (String l : out.split("\n")) {
      if (l.isBlank()) continue;
      try {
        out2.add(Json.MAPPER.readTree(l));
      } catch (Exception e) {
        throw new AssertionError("not JSON: " + l, e);
      }
    }
    return out2;
  }
}
