package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.ingest.clean.CleanOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CorpusPassTest {
  private final Map<Path, Integer> loads = new HashMap<>();

  private List<LoadedDocument> load(Path file) throws IngestException {
    loads.merge(file, 1, Integer::sum);
    if (file.toString().startsWith("bad")) throw new IngestException(file + ": cannot parse");
    return List.of(new LoadedDocument(null, "u", "t", "Text of " + file + " with words\nCookie notice for every page here\n",
        Map.of(), List.of()));
  }

  @Test
  void documentsUpToTheCapAreLoadedOnceTheRestAgainAndFailuresOnce() throws IngestException {
    List<Path> files = List.of(Path.of("a.txt"), Path.of("bad.txt"), Path.of("b.txt"), Path.of("c.txt"));
    // Room for about two files' text.
    CorpusPass pass = CorpusPass.run(files, this::load, CleanOptions.defaults(), 120);
    assertThat(pass.lines().documents()).isEqualTo(3);
    for (Path f : files) {
      if (f.toString().startsWith("bad")) {
        assertThatThrownBy(() -> pass.load(f)).isInstanceOf(IngestException.class).hasMessageContaining("cannot parse");
      } else {
        assertThat(pass.load(f)).hasSize(1);
      }
    }
    assertThat(loads).containsEntry(Path.of("a.txt"), 1).containsEntry(Path.of("b.txt"), 1)
        .containsEntry(Path.of("bad.txt"), 1).containsEntry(Path.of("c.txt"), 2);
  }
}
