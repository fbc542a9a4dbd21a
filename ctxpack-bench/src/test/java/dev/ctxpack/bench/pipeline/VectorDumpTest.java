package dev.ctxpack.bench.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link VectorDump} with the shipped MiniLM: two dumps on one machine agree, a changed vector shows, a cut file is refused. */
class VectorDumpTest {
  @TempDir Path dir;

  private Path corpus() throws IOException {
    Path c = dir.resolve("corpus.jsonl");
    Files.write(c, List.of(
        "{\"_id\": \"1\", \"title\": \"Vitamin D\", \"text\": \"Vitamin D supplements reduce the risk of fractures in older adults.\"}",
        "",
        "{\"_id\": \"2\", \"title\": \"Reembolso\", \"text\": \"O reembolso é feito em até trinta dias após o pedido.\"}",
        "{\"_id\": \"3\", \"title\": \"\", \"text\": \"   \"}",
        "{\"_id\": \"4\", \"title\": \"Boiling point\", \"text\": \"Water boils at 100 degrees Celsius at sea level.\"}"));
    return c;
  }

  @Test
  void twoDumpsOnOneMachineAreIdenticalAndAChangedVectorShows() throws IOException {
    Path c = corpus();
    assertEquals(3, VectorDump.texts(c, 10).size(), "blank lines and empty documents are skipped");
    assertEquals(2, VectorDump.texts(c, 2).size());
    Path a = dir.resolve("a.bin");
    Path b = dir.resolve("b.bin");
    VectorDump.dump(c, 10, a);
    VectorDump.dump(c, 10, b);
    VectorDump.Comparison same = VectorDump.compare(a, b);
    assertEquals(3, same.vectors());
    assertEquals(3, same.identical());
    assertEquals(0, same.belowFourNines());
    assertEquals(1.0, same.minCosine(), 1e-6);

    // Turn the second vector around (still unit length): that vector alone differs, at cosine -1.
    byte[] bytes = Files.readAllBytes(b);
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    int dim = buf.getInt(4);
    for (int i = 0; i < dim; i++) {
      int at = 8 + 4 * (dim + i);
      buf.putFloat(at, -buf.getFloat(at));
    }
    Files.write(b, bytes);
    VectorDump.Comparison changed = VectorDump.compare(a, b);
    assertEquals(2, changed.identical());
    assertEquals(1, changed.belowFourNines());
    assertEquals(-1.0, changed.minCosine(), 1e-5, changed.toString());
  }

  @Test
  void aCutFileIsRefusedNamingIt() throws IOException {
    Path c = corpus();
    Path a = dir.resolve("a.bin");
    VectorDump.dump(c, 10, a);
    Path cut = dir.resolve("cut.bin");
    byte[] bytes = Files.readAllBytes(a);
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 10));
    IOException e = assertThrows(IOException.class, () -> VectorDump.compare(a, cut));
    assertTrue(e.getMessage().contains("cut.bin") && e.getMessage().contains("not a complete"), e.getMessage());
    // A header that promises more than the file holds is refused before anything is allocated.
    Path bogus = dir.resolve("bogus.bin");
    Files.write(bogus, ByteBuffer.allocate(12).putInt(Integer.MAX_VALUE).putInt(384).putFloat(1f).array());
    IOException h = assertThrows(IOException.class, () -> VectorDump.compare(bogus, a));
    assertTrue(h.getMessage().contains("bogus.bin"), h.getMessage());
  }
}
