package dev.ctxpack.app.cli;

import dev.ctxpack.app.Components;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.index.Index;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "remove", mixinStandardHelpOptions = true, description = "Remove documents (and their chunks) by id.")
final class RemoveCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @Mixin CommonOptions common = new CommonOptions();

  @Parameters(paramLabel = "DOC_ID", arity = "1..*")
  List<String> ids;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<String> missing;
    int removed;
    try (Index index = Components.openExisting(common.indexSpec())) {
      missing = new java.util.ArrayList<>();
      for (String id : ids) if (index.find(id).isEmpty()) missing.add(id);
      removed = index.remove(ids);
    }
    if (common.json()) {
      var o = Json.object();
      o.put("removed", removed);
      var m = o.putArray("missing");
      missing.forEach(m::add);
      out.println(Json.line(o));
    } else {
      out.println("removed " + removed + " document(s)");
    }
    for (String id : missing) err.println("error: no document with id '" + id + "'");
    return missing.isEmpty() ? ExitCodes.OK : ExitCodes.FAILURE;
  }
}
