package dev.ctxpack.app.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctxpack.app.ExitCodes;
import dev.ctxpack.app.StoreChecks;
import dev.ctxpack.app.json.Json;
import dev.ctxpack.assemble.MemoryStores;
import dev.ctxpack.index.IndexCheck;
import dev.ctxpack.index.IndexSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ctxpack check}: reads every file of the index and of its memory store end to end against
 * its checksum ({@link StoreChecks}). Exit 0 when all verify; 1 when one does not, with the damaged
 * segment and file named on stdout and in one line on stderr. It takes no lock and changes nothing,
 * so it may run beside a service or an ingest.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = "Verify every file of the index and of its memory store against its checksum (searches do not read"
        + " every byte, so a damaged file can change answers without an error). Exit 1 names each damaged segment and"
        + " file. Takes no lock: it may run beside serve or ingest.")
final class CheckCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--index", paramLabel = "SPEC",
      description = "Index: a directory, or lucene:DIR (default: $CTXPACK_INDEX or ./.ctxpack).")
  String index;

  @Option(names = "--memory", paramLabel = "DIR",
      description = "Memory directory to check with it. Default: <index>/memory (nothing to check if it was never written).")
  Path memory;

  @Mixin FormatOption format = new FormatOption();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    IndexSpec idx = CommonOptions.indexSpec(index);
    IndexSpec mem = memory != null ? IndexSpec.ofPath(memory) : MemoryStores.beside(idx);
    List<StoreChecks.Checked> checked = StoreChecks.check(idx, mem);
    boolean intact = StoreChecks.intact(checked);
    if (format.json()) {
      ObjectNode o = Json.object();
      o.put("intact", intact);
      ArrayNode stores = o.putArray("stores");
      for (StoreChecks.Checked c : checked) stores.add(view(c));
      out.println(Json.line(o));
    } else {
      for (StoreChecks.Checked c : checked) text(out, c);
    }
    if (intact) return ExitCodes.OK;
    err.println("error: " + StoreChecks.damage(checked) + "; restore the directory from a backup or ingest again into a new one");
    return ExitCodes.FAILURE;
  }

  private static ObjectNode view(StoreChecks.Checked c) {
    IndexCheck k = c.check();
    ObjectNode s = Json.object();
    s.put("store", c.store()).put("location", k.location()).put("intact", k.intact())
        .put("files", k.files()).put("bytes", k.bytes());
    ArrayNode damaged = s.putArray("damaged");
    for (IndexCheck.Damage d : k.damaged()) {
      ObjectNode x = damaged.addObject();
      if (d.segment() == null) x.putNull("segment");
      else x.put("segment", d.segment());
      x.put("file", d.file()).put("problem", d.problem());
    }
    return s;
  }

  private static void text(PrintWriter out, StoreChecks.Checked c) {
    IndexCheck k = c.check();
    String head = c.store() + " " + k.location() + ": ";
    if (k.files() == 0 && k.intact()) {
      out.println(head + "nothing stored yet");
    } else if (k.intact()) {
      out.println(head + "intact (" + k.files() + " files, " + k.bytes() + " bytes verified)");
    } else {
      out.println(head + "DAMAGED (" + k.damaged().size() + " of " + k.files() + " files)");
      for (IndexCheck.Damage d : k.damaged()) out.println("  " + d.where() + ": " + d.problem());
    }
  }
}
