package dev.ctxpack.app.cli;

import dev.ctxpack.app.Components;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.Views;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.Index;
import dev.ctxpack.model.ContextPackage;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.pack.PackOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Ingest the bundled sample corpus (SciFact abstracts in English, FaQuAD paragraphs in Portuguese)"
        + " into an index (built once, then reused from the user cache) and pack one Portuguese and one English question.")
final class DemoCommand implements Callable<Integer> {
  static final List<String> SAMPLES = List.of("scifact-sample.jsonl", "faquad-sample.jsonl", "NOTICE");
  static final String PT_QUESTION = "Quais são as exigências para a renovação de matrícula na UFMS?";
  static final String EN_QUESTION = "Does caloric restriction slow age-related changes in DNA methylation?";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @Mixin PackCommand.PackFlags flags = new PackCommand.PackFlags();

  @Option(names = "--embedder", defaultValue = "minilm", description = "Embedder spec, as for ingest.")
  String embedderSpec;

  @Option(names = "--no-embed", description = "BM25 only: skip the embedding model.")
  boolean noEmbed;

  @Option(names = "--index", paramLabel = "SPEC",
      description = "Keep the demo index here (a directory, or lucene:DIR) instead of a temporary directory.")
  String keep;

  @Option(names = "--fresh",
      description = "Build the sample index anew instead of reusing the one cached by an earlier run"
          + " (under the user cache, see README; rebuilt anyway when ctxpack, the corpus or the embedder changes).")
  boolean fresh;

  @Mixin FormatOption format = new FormatOption();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    PackOptions options = flags.options();
    Path work = Files.createTempDirectory("ctxpack-demo");
    try {
      Path corpus = Files.createDirectories(work.resolve("corpus"));
      for (String name : SAMPLES) extract(name, corpus.resolve(name));
      Embedder embedder = noEmbed ? null : Components.embedder(embedderSpec);
      DemoIndex.Opened opened = keep != null
          ? DemoIndex.build(CommonOptions.spec(keep, "--index"), corpus, embedder, err)
          : DemoIndex.cachedOrBuilt(work, corpus, embedder, fresh, err);
      try (Index index = opened.index()) {
        if (!format.json()) {
          out.printf("ctxpack demo: %s %d documents (%d chunks) from the bundled sample corpus %s%s%n",
              opened.reused() ? "reused the index of" : opened.shipped() ? "unpacked the index of" : "ingested",
              opened.documents(), opened.chunks(),
              opened.reused() ? "(built earlier; --fresh rebuilds it)"
                  : opened.shipped() ? "(built with ctxpack and shipped in the jar; --fresh ingests anew)"
                  : String.format("in %.1fs", opened.seconds()),
              embedder == null ? " (BM25 only)" : " (BM25 + " + embedder.id() + " vectors)");
          out.println("index: " + (keep != null ? index.location()
              : opened.reused() || opened.cached() ? index.location() + " (cached)" : "temporary, removed on exit") + "\n");
        }
        DefaultContextPacker packer = Components.packer(index, embedder, dev.ctxpack.pack.StageListener.NONE);
        for (String q : List.of(PT_QUESTION, EN_QUESTION)) {
          ContextPackage p = packer.pack(q, options);
          if (format.json()) {
            out.println(Json.line(Views.pack(null, p)));
            continue;
          }
          out.println("=".repeat(78));
          out.println("QUERY: " + q);
          out.println("=".repeat(78));
          out.print(p.prompt());
          out.println("-".repeat(78));
          out.println(Texts.budget(p));
          out.println();
        }
      }
    } finally {
      deleteTree(work);
    }
    out.flush();
    return ExitCodes.OK;
  }

  private static void extract(String name, Path target) throws IOException {
    try (InputStream in = DemoCommand.class.getResourceAsStream("/dev/ctxpack/app/samples/" + name)) {
      if (in == null) throw new IOException("sample resource " + name + " is missing from the jar");
      Files.copy(in, target);
    }
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) return;
    List<Path> all = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root)) {
      s.sorted(Comparator.reverseOrder()).forEach(all::add);
    }
    for (Path p : all) Files.deleteIfExists(p);
  }
}
