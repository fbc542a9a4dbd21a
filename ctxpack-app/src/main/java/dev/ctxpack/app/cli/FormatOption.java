package dev.ctxpack.app.cli;

import picocli.CommandLine.Option;

/** {@code --format text|json}, text by default: the option of every command whose output is for people first. */
final class FormatOption {
  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "Output: text (for people) or json (for machines). Default: ${DEFAULT-VALUE}.")
  Format format = Format.text;

  boolean json() {
    return format == Format.json;
  }
}
