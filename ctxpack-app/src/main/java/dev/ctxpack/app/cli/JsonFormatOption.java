package dev.ctxpack.app.cli;

import picocli.CommandLine.Option;

/**
 * {@code --format json|text}, JSON by default: the option of chunk, dedup, compress and assemble,
 * whose output was JSON before they had a text format (scripts read it).
 */
final class JsonFormatOption {
  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "json",
      description = "Output: json (for machines) or text (for people). Default: ${DEFAULT-VALUE}.")
  Format format = Format.json;

  boolean json() {
    return format == Format.json;
  }
}
