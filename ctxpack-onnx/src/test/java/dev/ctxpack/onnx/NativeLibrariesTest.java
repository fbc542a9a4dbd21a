package dev.ctxpack.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeLibrariesTest {
  @TempDir Path tmp;

  private static String here() {
    return NativeLibraries.platform(System.getProperty("os.name"), System.getProperty("os.arch"));
  }

  @Test
  void namesPlatformsAsOnnxRuntimeDoes() {
    assertThat(NativeLibraries.platform("Linux", "amd64")).isEqualTo("linux-x64");
    assertThat(NativeLibraries.platform("Linux", "aarch64")).isEqualTo("linux-aarch64");
    assertThat(NativeLibraries.platform("Mac OS X", "aarch64")).isEqualTo("osx-aarch64");
    assertThat(NativeLibraries.platform("Mac OS X", "x86_64")).isEqualTo("osx-x64");
    assertThat(NativeLibraries.platform("Windows 11", "amd64")).isEqualTo("win-x64");
    assertThat(NativeLibraries.platform("SunOS", "sparcv9")).isNull();
    assertThat(NativeLibraries.platform("Linux", "riscv64")).isNull();
  }

  @Test
  void unpacksOnceAndReusesTheCopy() throws Exception {
    Path dir = NativeLibraries.unpack(tmp, here());
    assertThat(dir).isNotNull();
    Path lib = dir.resolve(System.mapLibraryName("onnxruntime"));
    Path jni = dir.resolve(System.mapLibraryName("onnxruntime4j_jni"));
    assertThat(Files.size(lib)).isGreaterThan(1_000_000);
    assertThat(Files.size(jni)).isGreaterThan(1_000);
    Files.setLastModifiedTime(lib, FileTime.fromMillis(1_000_000));

    assertThat(NativeLibraries.unpack(tmp, here())).isEqualTo(dir);
    assertThat(Files.getLastModifiedTime(lib).toMillis()).as("not rewritten").isEqualTo(1_000_000);
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.toList()).as("no temporary folder left").containsExactly(dir);
    }
  }

  @Test
  void aDamagedCopyIsRewritten() throws Exception {
    Path dir = NativeLibraries.unpack(tmp, here());
    Path lib = dir.resolve(System.mapLibraryName("onnxruntime"));
    long size = Files.size(lib);
    Files.write(lib, new byte[100]); // a truncated copy, as a killed process would leave
    assertThat(NativeLibraries.unpack(tmp, here())).isEqualTo(dir);
    assertThat(Files.size(lib)).isEqualTo(size);
  }

  @Test
  void aPlatformWithoutBundledLibrariesIsLeftToOnnxRuntime() throws Exception {
    assertThat(NativeLibraries.unpack(tmp, "linux-riscv64")).isNull();
    try (Stream<Path> s = Files.list(tmp)) {
      assertThat(s.toList()).isEmpty();
    }
  }

  @Test
  void userCacheFollowsThePlatformConventionUnlessNamed() {
    Map<String, String> none = Map.of();
    assertThat(UserCache.directory("/x/c", Map.of("CTXPACK_CACHE_DIR", "/y"), "Linux", "/home/u"))
        .isEqualTo(Path.of("/x/c"));
    assertThat(UserCache.directory(null, Map.of("CTXPACK_CACHE_DIR", "/y"), "Linux", "/home/u"))
        .isEqualTo(Path.of("/y"));
    assertThat(UserCache.directory(null, Map.of("XDG_CACHE_HOME", "/xdg"), "Linux", "/home/u"))
        .isEqualTo(Path.of("/xdg/ctxpack"));
    assertThat(UserCache.directory(" ", none, "Linux", "/home/u")).isEqualTo(Path.of("/home/u/.cache/ctxpack"));
    assertThat(UserCache.directory(null, none, "Mac OS X", "/Users/u"))
        .isEqualTo(Path.of("/Users/u/Library/Caches/ctxpack"));
  }

  /** A fresh JVM embeds a text: the library comes from the cache, nothing is left in the temp directory. */
  @Test
  void aJvmStartLeavesNothingInTheTempDirectory() throws Exception {
    Path cache = Files.createDirectories(tmp.resolve("cache"));
    Path temp = Files.createDirectories(tmp.resolve("temp"));
    for (int run = 0; run < 2; run++) {
      Process p = new ProcessBuilder(List.of(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-cp", System.getProperty("java.class.path"),
              "-D" + UserCache.PROPERTY + "=" + cache, "-Djava.io.tmpdir=" + temp,
              EmbedOnce.class.getName()))
          .redirectErrorStream(true).redirectOutput(tmp.resolve("out-" + run).toFile()).start();
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(Files.readString(tmp.resolve("out-" + run))).isZero();
      assertThat(Files.readString(tmp.resolve("out-" + run))).contains("384 " + cache.resolve("onnxruntime"));
      try (Stream<Path> s = Files.list(temp)) {
        assertThat(s.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("onnxruntime")).toList()).isEmpty();
      }
    }
    try (Stream<Path> s = Files.list(cache.resolve("onnxruntime"))) {
      assertThat(s.toList()).as("one copy for both starts").hasSize(1);
    }
  }

  /** Entry point of the forked JVM. */
  public static final class EmbedOnce {
    public static void main(String[] args) {
      float[] v = new MiniLmEmbedder().embed("hello");
      System.out.println(v.length + " " + new File(System.getProperty(NativeLibraries.PROPERTY)).getParent());
    }
  }
}
