package dev.ctxpack.bench.verify;

import dev.ctxpack.bench.compress.CompressData.Article;
import dev.ctxpack.bench.compress.CompressData.Half;
import dev.ctxpack.bench.verify.QaUnits.Unit;
import dev.ctxpack.model.Language;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options and data of the evaluations built on citation units ({@link QaUnits}) of SQuAD 2.0
 * dev (en) and FaQuAD (pt): where the data are, which half of the articles, the seed, and where the
 * report goes. A picocli mixin; each evaluation keeps its own {@code --limit} default.
 */
public final class QaUnitSets {
  @Option(names = "--data", defaultValue = "../shared/data", description = "The shared data directory.")
  Path dataDir;

  @Option(names = "--half", defaultValue = "report", description = "Articles: fit, report or all. Default: ${DEFAULT-VALUE}.")
  String halfName;

  @Option(names = "--seed", defaultValue = "42")
  long seed;

  @Option(names = "--out", description = "Also write the report (Markdown) here.")
  Path out;

  /** One data set: its key, language, the whole set, the half's articles, its units and those evaluated. */
  record Loaded(String key, Language language, VerifyData.QaSet set, List<Article> articles, QaUnits.Built built,
      List<Unit> units) {}

  /** SQuAD then FaQuAD, each with at most {@code limit} units of the chosen half (0 = all, else a seeded sample). */
  List<Loaded> load(int limit) throws IOException {
    List<Loaded> out = new ArrayList<>();
    for (String[] s : List.of(new String[] {"squad", "squad_v2_en/dev-v2.0.json", "en"},
        new String[] {"faquad", "faquad/train.json", "pt"})) {
      Language language = s[2].equals("pt") ? Language.PT : Language.EN;
      VerifyData.QaSet qa = VerifyData.loadQa(dataDir.resolve(s[1]));
      List<Article> articles = halfName.equals("all") ? qa.articles()
          : VerifyData.half(qa.articles(), halfName.equals("fit") ? Half.FIT : Half.REPORT);
      QaUnits.Built built = QaUnits.build(articles, qa.firstAnswerStart(), language, seed);
      List<Unit> units = limit == 0 ? built.units() : VerifyData.sample(built.units(), limit, seed);
      out.add(new Loaded(s[0], language, qa, articles, built, units));
    }
    return out;
  }

  /** Writes {@code report} to {@code --out}, whole or not at all, when it was given. */
  void write(String report) throws IOException {
    if (out == null) return;
    Path tmp = out.resolveSibling(out.getFileName() + ".part");
    Files.writeString(tmp, report, StandardCharsets.UTF_8);
    Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
  }
}
