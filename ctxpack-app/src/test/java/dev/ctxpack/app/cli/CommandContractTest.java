package dev.ctxpack.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The one contract of the command line (docs/API.md, "Conventions"): every command and subcommand,
 * found by walking the tree from {@link Main}'s root, takes {@code --help} and {@code --format} with
 * exactly the values {@code text} and {@code json}, and answers {@code --format json --help} and
 * {@code --format text --help} with exit code 0. A command added without the options fails here.
 */
class CommandContractTest {
  /** The commands whose output was JSON before they had a text format: their default stays json. */
  static final Set<String> JSON_BY_DEFAULT = Set.of("ctxpack chunk", "ctxpack dedup", "ctxpack compress", "ctxpack assemble");

  /** Every command of the tree, by qualified name ({@code ctxpack}, {@code ctxpack memory add}...). */
  static Map<String, CommandSpec> commands() {
    Map<String, CommandSpec> out = new TreeMap<>();
    walk(Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())), out,
        new IdentityHashMap<>());
    return out;
  }

  private static void walk(CommandLine cl, Map<String, CommandSpec> out, Map<CommandSpec, Boolean> seen) {
    if (seen.put(cl.getCommandSpec(), true) != null) return; // an alias of a command already walked
    out.put(cl.getCommandSpec().qualifiedName(), cl.getCommandSpec());
    for (CommandLine sub : cl.getSubcommands().values()) walk(sub, out, seen);
  }

  /** The arguments that name {@code command} from the root, e.g. {@code [memory, add]}. */
  private static List<String> path(String command) {
    List<String> words = new ArrayList<>(Arrays.asList(command.split(" ")));
    words.remove(0);
    return words;
  }

  private static CliRunner run(List<String> path, String... more) {
    List<String> args = new ArrayList<>(path);
    args.addAll(List.of(more));
    return CliRunner.run(args.toArray(String[]::new));
  }

  @Test
  void theWalkFindsEveryCommandAndSubcommand() {
    assertThat(commands().keySet()).contains("ctxpack", "ctxpack demo", "ctxpack ingest", "ctxpack chunk", "ctxpack remove",
        "ctxpack corpus-report", "ctxpack search", "ctxpack dedup", "ctxpack compress", "ctxpack pack", "ctxpack assemble",
        "ctxpack verify", "ctxpack check", "ctxpack serve", "ctxpack memory", "ctxpack memory add", "ctxpack memory list",
        "ctxpack memory recall", "ctxpack memory delete", "ctxpack solr", "ctxpack solr init", "ctxpack solr dev", "ctxpack help");
  }

  @TestFactory
  Stream<DynamicTest> everyCommandTakesFormatTextOrJsonAndHelp() {
    return commands().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
      CommandSpec spec = e.getValue();
      OptionSpec format = spec.findOption("--format");
      assertThat(format).as("%s has --format", e.getKey()).isNotNull();
      List<String> values = new ArrayList<>();
      format.completionCandidates().forEach(values::add);
      assertThat(values).as("the values of %s --format", e.getKey()).containsExactly("text", "json");
      assertThat(format.defaultValue()).as("the default of %s --format", e.getKey())
          .isEqualTo(JSON_BY_DEFAULT.contains(e.getKey()) ? "json" : "text");
      OptionSpec help = spec.findOption("--help");
      assertThat(help).as("%s has --help", e.getKey()).isNotNull();
      assertThat(help.usageHelp()).as("%s --help asks for the usage", e.getKey()).isTrue();
    }));
  }

  @TestFactory
  Stream<DynamicTest> everyCommandAnswersHelpInBothFormats() {
    return commands().keySet().stream().map(name -> DynamicTest.dynamicTest(name, () -> {
      CliRunner json = run(path(name), "--format", "json", "--help");
      assertThat(json.code()).as("%s --format json --help: %s", name, json.err()).isZero();
      assertThat(json.err()).isEmpty();
      JsonNode o = json.json();
      assertThat(o.get("command").asText()).isEqualTo(name);
      assertThat(o.get("usage").asText()).startsWith("Usage: " + name).contains("--format=FORMAT").contains("--help");
      CliRunner text = run(path(name), "--format", "text", "--help");
      assertThat(text.code()).as("%s --format text --help: %s", name, text.err()).isZero();
      assertThat(text.out()).isEqualTo(o.get("usage").asText());
      assertThat(run(path(name), "--help").out()).as("--help without --format is the text").isEqualTo(text.out());
    }));
  }

  @Test
  void helpNamesACommandAndSaysTheSameAsItsHelpOption() {
    for (String name : List.of("ctxpack pack", "ctxpack memory recall", "ctxpack")) {
      List<String> args = new ArrayList<>(List.of("help", "--format", "json"));
      args.addAll(path(name));
      CliRunner help = CliRunner.run(args.toArray(String[]::new));
      assertThat(help.code()).as(help.err()).isZero();
      assertThat(help.out()).isEqualTo(run(path(name), "--format", "json", "--help").out());
      List<String> textArgs = new ArrayList<>(List.of("help"));
      textArgs.addAll(path(name));
      assertThat(CliRunner.run(textArgs.toArray(String[]::new)).out()).isEqualTo(run(path(name), "--help").out());
    }
    CliRunner unknown = CliRunner.run("help", "nosuch");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).contains("Unknown subcommand 'nosuch'");
  }

  @Test
  void aFormatOtherThanTextOrJsonIsAUsageError() {
    CliRunner r = CliRunner.run("dedup", "--format", "yaml");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--format").contains("yaml");
  }
}
