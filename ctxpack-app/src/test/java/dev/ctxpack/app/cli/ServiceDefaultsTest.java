package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.app.Components;
import dev.ctxpack.app.json.CompressEndpoint;
import dev.ctxpack.app.json.SearchEndpoint;
import dev.ctxpack.dedup.DedupOptions;
import dev.ctxpack.ingest.IngestOptions;
import dev.ctxpack.pack.PackOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The service answers each route with the defaults of its command, built from the library rather
 * than by parsing the command: these are the same values the commands get with no options, so
 * {@code POST /v1/<command>} and an option-less {@code --batch} line cannot drift apart.
 */
class ServiceDefaultsTest {
  private static <T> T parse(T command, String... args) {
    new CommandLine(command).parseArgs(args);
    return command;
  }

  @Test
  void packWithNoOptionsIsPackOptionsDefaults() {
    assertThat(parse(new PackCommand(), "-q", "x").flags.options()).isEqualTo(PackOptions.defaults());
  }

  @Test
  void searchWithNoOptionsTakesTheEndpointsDefaults() {
    SearchCommand s = parse(new SearchCommand(), "-q", "x");
    assertThat(s.k).isEqualTo(SearchEndpoint.DEFAULT_K).isEqualTo(10);
    assertThat(s.mode).isEqualTo(SearchEndpoint.DEFAULT_MODE).isEqualTo("hybrid");
    assertThat(s.reranker).isEqualTo("none");
    assertThat(s.window).isZero();
    assertThat(s.fusion.fusion().describe()).isEqualTo(new dev.ctxpack.retrieve.RrfFusion().describe());
  }

  @Test
  void dedupWithNoOptionsIsTheStrictCascade() {
    assertThat(parse(new DedupCommand()).options()).isEqualTo(DedupOptions.strict());
  }

  @Test
  void compressWithNoOptionsLeavesEveryChoiceToTheRequest() {
    assertThat(parse(new CompressCommand()).defaults()).isEqualTo(CompressEndpoint.Defaults.NONE);
  }

  @Test
  void ingestWithNoOptionsIsWhatPostDocumentsIngestsWith() {
    IngestOptions cli = parse(new IngestCommand(), "-").options(null);
    IngestOptions service = Components.ingestOptions(null);
    assertThat(cli.chunker().getClass()).isEqualTo(service.chunker().getClass());
    assertThat(cli.chunker().signature()).isEqualTo(service.chunker().signature()).isEqualTo("token:300:0.15");
    assertThat(new IngestOptions(service.chunker(), cli.language(), cli.embedder(), cli.vectorWindow(), cli.commitEvery(),
        cli.sync(), cli.sentenceVectors(), cli.limits(), cli.files(), cli.cleaning())).isEqualTo(service);
  }
}
