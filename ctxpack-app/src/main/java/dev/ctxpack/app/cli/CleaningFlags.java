package dev.ctxpack.app.cli;

import dev.ctxpack.app.UsageException;
import dev.ctxpack.ingest.clean.CleanOptions;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Cleaning options, shared by {@code ingest} and {@code chunk}. */
final class CleaningFlags {
  @Option(names = "--no-clean", description = "Store the text as loaded: no whitespace normalisation, no removal of"
      + " running heads, repeated lines or --remove matches.")
  boolean noClean;

  @Option(names = "--remove", paramLabel = "REGEX", description = "Remove matches of this Java regular expression"
      + " (multi-line: ^ and $ match at line breaks; a match that leaves its line blank removes the line). Repeatable.")
  List<String> remove = new ArrayList<>();

  @Option(names = "--repeated-min-docs", paramLabel = "N", defaultValue = "" + CleanOptions.DEFAULT_REPEATED_MIN_DOCS,
      description = "A short line in at least N documents (and --repeated-min-share of them) is corpus boilerplate."
          + " Default: ${DEFAULT-VALUE}.")
  int minDocs;

  @Option(names = "--repeated-min-share", paramLabel = "F", defaultValue = "" + CleanOptions.DEFAULT_REPEATED_MIN_SHARE,
      description = "Share of the documents a boilerplate line must be in. Default: ${DEFAULT-VALUE}.")
  double minShare;

  @Option(names = "--repeated-min-corpus", paramLabel = "N", defaultValue = "" + CleanOptions.DEFAULT_REPEATED_MIN_CORPUS,
      description = "Judge lines across the corpus only when at least N documents are ingested together."
          + " Default: ${DEFAULT-VALUE}.")
  int minCorpus;

  @Option(names = "--repeats-in-document", paramLabel = "N", defaultValue = "" + CleanOptions.DEFAULT_REPEATS_IN_DOCUMENT,
      description = "Remove a short line that occurs N times in one document (0: never). Default: ${DEFAULT-VALUE}.")
  int repeatsInDocument;

  CleanOptions options() {
    try {
      return CleanOptions.defaults().withEnabled(!noClean).withRemove(remove).withRepeated(minDocs, minShare, minCorpus)
          .withRepeatsInDocument(repeatsInDocument);
    } catch (IllegalArgumentException e) {
      throw new UsageException(flagged(e.getMessage()));
    }
  }

  /** The option's message with the command-line flag named instead of the field. */
  private static String flagged(String message) {
    return message.replace("remove pattern", "--remove")
        .replace("repeatedMinDocs", "--repeated-min-docs")
        .replace("repeatedMinShare", "--repeated-min-share")
        .replace("repeatedMinCorpus", "--repeated-min-corpus")
        .replace("repeatsInDocument", "--repeats-in-document");
  }
}
