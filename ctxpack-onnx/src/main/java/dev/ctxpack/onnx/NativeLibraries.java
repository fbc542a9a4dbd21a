package dev.ctxpack.onnx;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.zip.CRC32;

/**
 * Unpacks ONNX Runtime's native libraries once per version into the {@linkplain UserCache user
 * cache} and points ONNX Runtime at them ({@code onnxruntime.native.path}), instead of letting
 * every JVM start unpack 16 MB into a fresh {@code onnxruntime-java*} folder of the system temp
 * directory that is never removed (a killed process leaves the whole library behind).
 *
 * <p>The folder is named by platform and by the libraries' own size and checksum, so another ONNX
 * Runtime version gets its own folder. It is written under a temporary name and renamed into place,
 * so concurrent starts never see a half-written library; a folder whose files do not have the
 * expected sizes is ignored and rewritten. When the property is already set, when this platform
 * has no bundled library, or when the cache cannot be written, ONNX Runtime's own loading is left
 * as it is.
 */
final class NativeLibraries {
  static final String PROPERTY = "onnxruntime.native.path";
  private static final Logger LOG = Logger.getLogger(NativeLibraries.class.getName());
  private static final String RESOURCES = "/ai/onnxruntime/native/";
  private static final List<String> NAMES = List.of("onnxruntime", "onnxruntime4j_jni");
  private static boolean prepared;

  private NativeLibraries() {}

  /** Sets {@code onnxruntime.native.path} to the cached libraries; call before ONNX Runtime loads. */
  static synchronized void prepare() {
    if (prepared) return;
    prepared = true;
    if (System.getProperty(PROPERTY) != null) return;
    String platform = platform(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    if (platform == null) return;
    try {
      Path dir = unpack(UserCache.directory().resolve("onnxruntime"), platform);
      if (dir != null) System.setProperty(PROPERTY, dir.toString());
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "ONNX Runtime's libraries not cached; it unpacks them itself", e);
    }
  }

  /**
   * Unpacks the bundled libraries of {@code platform} under {@code root} unless an intact copy is
   * there, and returns their folder; null when the class path holds no library for the platform.
   */
  static Path unpack(Path root, String platform) throws IOException {
    StringBuilder key = new StringBuilder(platform);
    long[] sizes = new long[NAMES.size()];
    URL[] urls = new URL[NAMES.size()];
    for (int i = 0; i < NAMES.size(); i++) {
      urls[i] = NativeLibraries.class.getResource(RESOURCES + platform + "/" + System.mapLibraryName(NAMES.get(i)));
      if (urls[i] == null) return null;
      URLConnection c = urls[i].openConnection();
      sizes[i] = c.getContentLengthLong();
      key.append('-').append(Long.toHexString(sizes[i]));
    }
    key.append('-').append(crc(urls[NAMES.size() - 1])); // the small JNI binding: cheap to read
    Path dir = root.resolve(key.toString());
    if (intact(dir, sizes)) return dir;
    Files.createDirectories(root);
    Path tmp = Files.createTempDirectory(root, "." + key + "-");
    try {
      for (int i = 0; i < NAMES.size(); i++) {
        try (InputStream in = urls[i].openStream()) {
          Files.copy(in, tmp.resolve(System.mapLibraryName(NAMES.get(i))));
        }
      }
      if (Files.exists(dir)) deleteTree(dir); // a damaged copy
      try {
        Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | DirectoryNotEmptyException | AtomicMoveNotSupportedException e) {
        // another process won the race: use its copy if it is whole
      }
    } finally {
      deleteTree(tmp);
    }
    return intact(dir, sizes) ? dir : null;
  }

  private static boolean intact(Path dir, long[] sizes) throws IOException {
    for (int i = 0; i < NAMES.size(); i++) {
      Path f = dir.resolve(System.mapLibraryName(NAMES.get(i)));
      if (!Files.isRegularFile(f) || (sizes[i] >= 0 && Files.size(f) != sizes[i])) return false;
    }
    return true;
  }

  private static String crc(URL url) throws IOException {
    CRC32 crc = new CRC32();
    try (InputStream in = url.openStream()) {
      byte[] buf = new byte[8192];
      for (int n; (n = in.read(buf)) > 0; ) crc.update(buf, 0, n);
    }
    return Long.toHexString(crc.getValue());
  }

  /** ONNX Runtime's name for the platform ({@code linux-x64}, {@code osx-aarch64}, ...), or null. */
  static String platform(String osName, String osArch) {
    String os = osName.toLowerCase(Locale.ROOT);
    String arch = osArch.toLowerCase(Locale.ROOT);
    String o = os.contains("mac") || os.contains("darwin") ? "osx" : os.contains("win") ? "win"
        : os.contains("linux") ? "linux" : null;
    String a = arch.equals("amd64") || arch.equals("x86_64") ? "x64"
        : arch.equals("aarch64") || arch.equals("arm64") ? "aarch64" : null;
    return o == null || a == null ? null : o + "-" + a;
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) return;
    try (var s = Files.walk(root)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
