package dev.ctxpack.app;

import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.ingest.IngestException;
import dev.ctxpack.ingest.LoadedDocument;
import dev.ctxpack.ingest.Loader;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.text.TextNormalizer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "chunk", mixinStandardHelpOptions = true,
    description = "Show how files would be cut, without indexing: one JSON line per chunk.")
final class ChunkCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "FILE", arity = "1..*", description = "Files to cut (.txt, .md, .jsonl).")
  List<Path> files;

  @Mixin IngestCommand.ChunkingOptions chunking = new IngestCommand.ChunkingOptions();

  @Option(names = "--lang", defaultValue = "auto", description = "Document language: auto, pt or en.")
  String lang;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Chunker chunker = chunking.chunker(() -> Components.embedder("minilm"));
    Optional<Language> language = lang.equalsIgnoreCase("auto") ? Optional.empty() : Optional.of(Language.fromCode(lang));
    Loaders loaders = Loaders.defaults();
    LanguageDetector detector = new LanguageDetector();
    int failures = 0;
    for (Path f : files) {
      Optional<Loader> loader = loaders.forFile(f);
      if (!Files.exists(f)) {
        err.println("error: " + f + ": no such file");
        failures++;
        continue;
      }
      if (loader.isEmpty()) {
        err.println("error: " + f + ": unsupported format: supported extensions are " + String.join(", ", loaders.extensions()));
        failures++;
        continue;
      }
      List<LoadedDocument> docs;
      try {
        docs = loader.get().load(f);
      } catch (IngestException e) {
        err.println("error: " + e.getMessage());
        failures++;
        continue;
      }
      for (LoadedDocument ld : docs) {
        String text = TextNormalizer.storageForm(ld.text());
        String id = ld.id() != null ? ld.id() : TextNormalizer.contentId(text);
        Language l = language.orElseGet(() -> detector.detect(ld.title() + "\n" + text));
        Document doc = new Document(id, ld.uri(), ld.title(), l, ld.metadata(), text);
        for (Chunk c : chunker.chunk(doc, ld.sections())) out.println(Json.line(Views.chunk(c)));
      }
    }
    out.flush();
    return failures == 0 ? ExitCodes.OK : ExitCodes.FAILURE;
  }
}
