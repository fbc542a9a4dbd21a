package dev.ctxpack.bench.compress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class FitCompressorTest {

  @Test
  void aRefittedModelsRecordIsDroppedAndTheOthersAreKeptWithTheirTables() {
    List<String> header = List.of(
        "# FeatureSentenceScorer models: p = sigmoid(...)",
        "#   java -cp ctxpack-bench.jar dev.ctxpack.bench.compress.FitCompressor --data ../shared/data",
        "# en: 2839 questions; CV (5 folds) MRR of the first answer sentence:",
        "#   lambda 1.0E-4  MRR 0.9190",
        "#   chosen: lambda 1.0E-4",
        "# pt.lexical: 313 questions of the FIT half of faquad/train.json; CV (5 folds):",
        "#   lambda 0.1     MRR 0.9082",
        "#   chosen: lambda 0.1",
        "version=v1",
        "en.a=0.7");
    assertThat(FitCompressor.keptRecord(header, List.of("pt.lexical"))).containsExactly(
        "en: 2839 questions; CV (5 folds) MRR of the first answer sentence:", "  lambda 1.0E-4  MRR 0.9190", "  chosen: lambda 1.0E-4");
    assertThat(FitCompressor.keptRecord(header, List.of())).hasSize(6);
  }

  @Test
  void refitNeedsTheModelsToKeepAndNamesAnUnknownModel() {
    StringWriter err = new StringWriter();
    int code = new CommandLine(new FitCompressor()).setErr(new PrintWriter(err)).execute("--refit", "pt.lexical");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--refit needs --weights-from");
    StringWriter err2 = new StringWriter();
    int code2 = new CommandLine(new FitCompressor()).setErr(new PrintWriter(err2))
        .execute("--weights-from", "scorer.properties", "--refit", "pt");
    assertThat(code2).isEqualTo(2);
    assertThat(err2.toString()).contains("unknown model 'pt'").contains("en.tokens");
  }

  @Test
  void eachModelNameIsTheScorersKeyWithThePrefixItReadsAndWrites() {
    for (String name : FitCompressor.MODELS) {
      dev.ctxpack.compress.FeatureSentenceScorer.Key key = FitCompressor.key(name);
      java.util.Properties p = new java.util.Properties();
      p.setProperty(name + ".a", "1");
      assertThat(dev.ctxpack.compress.FeatureSentenceScorer.parse(p)).as(name).containsOnlyKeys(key);
    }
    assertThat(FitCompressor.key("en.tokens").tokens()).isTrue();
    assertThat(FitCompressor.key("en.tokens").vectors()).isTrue();
  }

  @Test
  void pooledCrossValidationWeighsEachSourceAlikeAndEqualsThePlainOneForOneSource() {
    // Source A: the positive sentence has the larger first feature; source B: the larger second one.
    List<FitCompressor.Group> a = groups(new Random(1), 0, 40);
    List<FitCompressor.Group> b = groups(new Random(2), 1, 400);
    assertThat(FitCompressor.crossValidatePooled(List.of(a), 0.01)).isEqualTo(FitCompressor.crossValidate(a, 0.01));
    double pooled = FitCompressor.crossValidatePooled(List.of(a, b), 0.01);
    List<FitCompressor.Group> both = new ArrayList<>(a);
    both.addAll(b);
    // Pooled by question, the large source B dominates the mean; by source, A's lower MRR counts half.
    assertThat(pooled).isLessThan(FitCompressor.crossValidate(both, 0.01));
  }

  private static List<FitCompressor.Group> groups(Random r, int signal, int n) {
    int d = dev.ctxpack.compress.SentenceFeatures.NAMES.size();
    List<FitCompressor.Group> out = new ArrayList<>();
    for (int q = 0; q < n; q++) {
      double[][] x = new double[5][d];
      boolean[] pos = new boolean[5];
      int p = r.nextInt(5);
      pos[p] = true;
      for (int i = 0; i < 5; i++) {
        for (int f = 0; f < d; f++) x[i][f] = r.nextGaussian();
        if (i == p) x[i][signal] += 1.5;
      }
      out.add(new FitCompressor.Group(x, pos));
    }
    return out;
  }
}
