package dev.ctxpack.app.cli;

import dev.ctxpack.app.Components;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.app.json.Views;
import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.ingest.IngestException;
import dev.ctxpack.ingest.LoadGuard;
import dev.ctxpack.ingest.LoadedDocument;
import dev.ctxpack.ingest.Loader;
import dev.ctxpack.ingest.Loaders;
import dev.ctxpack.ingest.clean.CleanOptions;
import dev.ctxpack.ingest.clean.Cleaned;
import dev.ctxpack.ingest.clean.Cleaner;
import dev.ctxpack.ingest.clean.CorpusLines;
import dev.ctxpack.ingest.clean.Removal;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.text.TextNormalizer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "chunk", mixinStandardHelpOptions = true,
    description = "Show how files would be cleaned and cut, without indexing: one JSON line per chunk (--format text:"
        + " one block per chunk with its offsets, tokens and section).")
final class ChunkCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "FILE", arity = "1..*", description = "Files to cut (.txt, .md, .html, .pdf, .jsonl).")
  List<Path> files;

  @Mixin IngestCommand.ChunkingOptions chunking = new IngestCommand.ChunkingOptions();

  @Mixin IngestCommand.LoadingOptions loading = new IngestCommand.LoadingOptions();

  @Option(names = "--lang", defaultValue = "auto", description = "Document language: auto, pt or en.")
  String lang;

  @Mixin CleaningFlags cleaning = new CleaningFlags();

  @Mixin JsonFormatOption format = new JsonFormatOption();

  @Option(names = "--removals", description = "Before each document's chunks, print what cleaning removed from it:"
      + " one JSON line {\"removed\": {docId, reason, start, end, text}} per span (offsets in the text as loaded;"
      + " --format text: one line each).")
  boolean removals;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Chunker chunker = chunking.chunker(() -> Components.embedder("minilm"));
    CleanOptions cleanOptions = cleaning.options();
    Cleaner cleaner = new Cleaner(cleanOptions);
    // Every file is loaded first: lines repeated across the given files are judged together, as at ingest.
    Map<Path, List<LoadedDocument>> loaded = new LinkedHashMap<>();
    Optional<Language> language = lang.equalsIgnoreCase("auto") ? Optional.empty() : Optional.of(Language.fromCode(lang));
    Loaders loaders = Loaders.defaults();
    LoadGuard guard = new LoadGuard(loading.limits());
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
        docs = guard.load(loader.get(), f);
      } catch (IngestException e) {
        err.println("error: " + e.getMessage());
        failures++;
        continue;
      }
      loaded.put(f, docs);
    }
    CorpusLines corpus = new CorpusLines(cleanOptions);
    if (cleanOptions.needsCorpus()) loaded.values().forEach(docs -> docs.forEach(corpus::add));
    for (List<LoadedDocument> docs : loaded.values()) {
      for (LoadedDocument raw : docs) {
        Cleaned cleaned = cleaner.clean(raw, corpus);
        LoadedDocument ld = cleaned.doc();
        String text = TextNormalizer.storageForm(ld.text());
        String id = ld.id() != null ? ld.id() : TextNormalizer.contentId(text);
        Language l = language.orElseGet(() -> detector.detect(ld.title() + "\n" + text));
        Document doc = new Document(id, ld.uri(), ld.title(), l, ld.metadata(), text);
        if (removals) {
          for (Removal r : cleaned.removals()) out.println(format.json() ? Json.line(removal(id, r)) : Texts.removal(id, r));
        }
        for (Chunk c : LoadedDocument.withPages(chunker.chunk(doc, ld.sections()), ld.pages())) {
          if (format.json()) out.println(Json.line(Views.chunk(c)));
          else out.print(Texts.chunk(c));
        }
      }
    }
    out.flush();
    return failures == 0 ? ExitCodes.OK : ExitCodes.FAILURE;
  }

  /** {@code {"removed": {"docId", "reason", "start", "end", "text"}}}. */
  static com.fasterxml.jackson.databind.node.ObjectNode removal(String docId, Removal r) {
    com.fasterxml.jackson.databind.node.ObjectNode o = Json.MAPPER.createObjectNode();
    com.fasterxml.jackson.databind.node.ObjectNode in = o.putObject("removed");
    in.put("docId", docId);
    in.put("reason", r.reason().label());
    in.put("start", r.start());
    in.put("end", r.end());
    in.put("text", r.text());
    return o;
  }
}
