package dev.ctxpack.onnx;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * The per-user cache directory ctxpack keeps derived files in (ONNX Runtime's unpacked native
 * library, the demo's index). Nothing in it is needed: every entry is rebuilt when it is missing,
 * and deleting the directory is always safe.
 *
 * <p>Resolution order: the system property {@code ctxpack.cache.dir}, the environment variable
 * {@code CTXPACK_CACHE_DIR}, then the platform's convention: {@code $XDG_CACHE_HOME/ctxpack} or
 * {@code ~/.cache/ctxpack} on Linux, {@code ~/Library/Caches/ctxpack} on macOS and {@code
 * %LOCALAPPDATA%\ctxpack\cache} on Windows.
 */
public final class UserCache {
  /** System property naming the cache directory. */
  public static final String PROPERTY = "ctxpack.cache.dir";
  /** Environment variable naming the cache directory. */
  public static final String ENV = "CTXPACK_CACHE_DIR";

  private UserCache() {}

  /** The cache directory for this process (not created). */
  public static Path directory() {
    return directory(System.getProperties().getProperty(PROPERTY), System.getenv(),
        System.getProperty("os.name", ""), System.getProperty("user.home", "."));
  }

  static Path directory(String property, Map<String, String> env, String osName, String home) {
    if (notBlank(property)) return Path.of(property);
    if (notBlank(env.get(ENV))) return Path.of(env.get(ENV));
    String os = osName.toLowerCase(Locale.ROOT);
    if (os.contains("mac") || os.contains("darwin")) return Path.of(home, "Library", "Caches", "ctxpack");
    if (os.contains("win")) {
      String local = env.get("LOCALAPPDATA");
      return notBlank(local) ? Path.of(local, "ctxpack", "cache") : Path.of(home, "AppData", "Local", "ctxpack", "cache");
    }
    String xdg = env.get("XDG_CACHE_HOME");
    return notBlank(xdg) ? Path.of(xdg, "ctxpack") : Path.of(home, ".cache", "ctxpack");
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }
}
