package dev.ctxpack.app.cli;

import dev.ctxpack.app.Errors;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.JsonEndpoint;
import dev.ctxpack.app.json.Views;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * JSON Lines in, JSON Lines out, one result per non-blank input line, in order. A bad line yields
 * {@code {"line": N, "error": "..."}} and the others still run; the exit code is then 1.
 */
final class BatchRunner {
  private BatchRunner() {}

  static int run(String source, PrintWriter out, JsonEndpoint handler) throws IOException {
    BufferedReader r;
    if (source.equals("-")) {
      r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    } else {
      Path p = Path.of(source);
      if (!Files.exists(p)) throw new NoSuchFileException(source);
      r = Files.newBufferedReader(p, StandardCharsets.UTF_8);
    }
    int errors = 0;
    try (r) {
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (line.isBlank()) continue;
        try {
          out.println(Json.line(handler.handle(Json.parseObject(line))));
        } catch (Exception e) {
          errors++;
          out.println(Json.line(Views.error(n, Errors.message(e))));
        }
        out.flush();
      }
    }
    return errors == 0 ? ExitCodes.OK : ExitCodes.FAILURE;
  }

  /** Every line of {@code source} ({@code -} for stdin), UTF-8; a missing file is named. */
  static List<String> readLines(String source) throws IOException {
    if (source.equals("-")) {
      BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      return r.lines().toList();
    }
    Path p = Path.of(source);
    if (!Files.exists(p)) throw new NoSuchFileException(source);
    return Files.readAllLines(p, StandardCharsets.UTF_8);
  }
}
