package dev.ctxpack.app.cli;

import dev.ctxpack.app.json.Json;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code ctxpack help [COMMAND [SUBCOMMAND]]}: the usage of ctxpack or of a command, as {@code
 * COMMAND --help} prints it; with {@code --format json}, {@link #json} of it.
 */
@Command(name = "help", helpCommand = true, mixinStandardHelpOptions = true,
    description = "Show the usage of ctxpack or of a command (help pack, help memory add). --format json:"
        + " {\"command\": \"ctxpack pack\", \"usage\": \"...\"}.")
final class HelpCommand implements Runnable, CommandLine.IHelpCommandInitializable2 {
  @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command, and subcommand, whose usage to show.")
  List<String> commands = new ArrayList<>();

  @Mixin FormatOption format = new FormatOption();

  private CommandLine self;
  private CommandLine.Help.ColorScheme colors;
  private PrintWriter out;

  @Override
  public void init(CommandLine helpCommandLine, CommandLine.Help.ColorScheme colorScheme, PrintWriter out, PrintWriter err) {
    this.self = helpCommandLine;
    this.colors = colorScheme;
    this.out = out;
  }

  @Override
  public void run() {
    CommandLine target = self.getParent();
    for (String name : commands) {
      CommandLine sub = target.getSubcommands().get(name);
      if (sub == null) throw new CommandLine.ParameterException(self, "Unknown subcommand '" + name + "'.");
      target = sub;
    }
    if (format.json()) out.println(json(target));
    else target.usage(out, colors);
    out.flush();
  }

  /** {@code {"command": "ctxpack pack", "usage": "Usage: ctxpack pack ..."}}: the usage as {@code --help} prints it, without colours. */
  static String json(CommandLine command) {
    String usage = command.getUsageMessage(CommandLine.Help.Ansi.OFF);
    return Json.line(Json.object().put("command", command.getCommandSpec().qualifiedName()).put("usage", usage));
  }
}
