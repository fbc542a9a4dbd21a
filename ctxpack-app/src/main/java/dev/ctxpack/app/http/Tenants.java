package dev.ctxpack.app.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.app.Errors;
import dev.ctxpack.app.UsageException;
import dev.ctxpack.index.Access;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.text.TextNormalizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The tenants of {@code ctxpack serve --tenants FILE}: each tenant's collections (one index each,
 * named by a directory or a spec such as {@code lucene:DIR}; relative paths resolved against the
 * file's folder) and its API keys. A key names
 * its principal, the access labels it reads ({@code ["*"]}: every document of the tenant),
 * whether it may add and remove documents, and the users whose memories it may read, add and delete
 * ({@code "users"}: user ids, or {@code ["*"]} for a service key that acts for every user; without
 * it, only the user its principal names). Keys are kept only as SHA-256 digests: the file gives
 * either {@code "keySha256"} (hex) or {@code "key"} (at least {@link #MIN_KEY_CHARS} characters,
 * hashed when read). Example:
 *
 * <pre>{@code
 * {"tenants": {
 *   "acme": {"collections": {"docs": "acme/docs", "hr": "acme/hr"},
 *            "keys": [{"principal": "alice", "keySha256": "9f86…", "labels": ["eng"]},
 *                     {"principal": "loader", "key": "acme-loader-secret-1", "labels": ["*"], "write": true,
 *                      "users": ["*"]}]}}}
 * }</pre>
 *
 * A tenant's first collection is its default. Tenant and collection names are {@code [A-Za-z0-9_.-]},
 * at most 64 characters; a key may belong to one tenant only; duplicate names are errors.
 */
final class Tenants {
  static final int MIN_KEY_CHARS = 16;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");
  private static final ObjectMapper STRICT = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  /** A tenant: its collections by name, in the file's order (the first is the default). */
  record Tenant(String id, Map<String, IndexSpec> collections) {
    String defaultCollection() {
      return collections.keySet().iterator().next();
    }
  }

  private final Map<String, Tenant> tenants;
  private final Map<String, Caller> byDigest;

  private Tenants(Map<String, Tenant> tenants, Map<String, Caller> byDigest) {
    this.tenants = Map.copyOf(tenants);
    this.byDigest = Map.copyOf(byDigest);
  }

  List<Tenant> all() {
    List<Tenant> out = new ArrayList<>(tenants.values());
    out.sort(java.util.Comparator.comparing(Tenant::id));
    return out;
  }

  Tenant tenant(String id) {
    return tenants.get(id);
  }

  /**
   * The caller of a request with {@code authorization} (the header's value): {@code Bearer KEY} for
   * a configured key; empty for a missing header, another scheme or an unknown key (the service
   * answers all three alike).
   */
  Optional<Caller> authenticate(String authorization) {
    if (authorization == null) return Optional.empty();
    String h = authorization.strip();
    if (h.length() < 7 || !h.regionMatches(true, 0, "Bearer ", 0, 7)) return Optional.empty();
    String key = h.substring(7).strip();
    if (key.isEmpty()) return Optional.empty();
    return Optional.ofNullable(byDigest.get(TextNormalizer.sha256Hex(key)));
  }

  /** Reads a tenants file; every error names the file and the field. */
  static Tenants load(Path file) {
    JsonNode root;
    try {
      root = STRICT.readTree(Files.readString(file));
    } catch (java.nio.file.NoSuchFileException e) {
      throw new UsageException("--tenants " + file + ": no such file");
    } catch (IOException e) {
      throw new UsageException("--tenants " + file + ": not valid JSON: " + Errors.message(e));
    }
    Path base = file.toAbsolutePath().getParent();
    JsonNode ts = root == null ? null : root.get("tenants");
    if (ts == null || !ts.isObject() || ts.isEmpty()) throw bad(file, "tenants", "must be an object with at least one tenant");
    Map<String, Tenant> tenants = new LinkedHashMap<>();
    Map<String, Caller> keys = new HashMap<>();
    Map<IndexSpec, String> dirs = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = ts.fields(); it.hasNext(); ) {
      var t = it.next();
      String id = t.getKey();
      String where = "tenants." + id;
      if (!NAME.matcher(id).matches()) throw bad(file, where, "a tenant name is 1 to 64 of A-Z a-z 0-9 _ . -");
      JsonNode cs = t.getValue().get("collections");
      if (cs == null || !cs.isObject() || cs.isEmpty()) throw bad(file, where + ".collections", "must name at least one collection");
      Map<String, IndexSpec> collections = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> ci = cs.fields(); ci.hasNext(); ) {
        var c = ci.next();
        String cw = where + ".collections." + c.getKey();
        if (!NAME.matcher(c.getKey()).matches()) throw bad(file, cw, "a collection name is 1 to 64 of A-Z a-z 0-9 _ . -");
        if (!c.getValue().isTextual() || c.getValue().asText().isBlank()) throw bad(file, cw, "must be an index directory or spec");
        IndexSpec dir;
        try {
          dir = Indexes.resolve(IndexSpec.parse(c.getValue().asText()), base);
        } catch (IllegalArgumentException e) {
          throw bad(file, cw, e.getMessage());
        }
        String other = dirs.putIfAbsent(dir, cw);
        // Two collections in one directory would share documents: across tenants, a leak.
        if (other != null) throw bad(file, cw, "uses the directory of " + other);
        collections.put(c.getKey(), dir);
      }
      tenants.put(id, new Tenant(id, collections));
      JsonNode ks = t.getValue().get("keys");
      if (ks == null || !ks.isArray() || ks.isEmpty()) throw bad(file, where + ".keys", "must list at least one key");
      for (int i = 0; i < ks.size(); i++) {
        JsonNode k = ks.get(i);
        String kw = where + ".keys[" + i + "]";
        if (!k.isObject()) throw bad(file, kw, "must be an object");
        String principal = text(file, k, kw, "principal");
        if (principal == null || principal.isBlank()) throw bad(file, kw + ".principal", "must be given");
        String digest = digest(file, k, kw);
        Access access = access(file, k.get("labels"), kw + ".labels");
        JsonNode w = k.get("write");
        if (w != null && !w.isBoolean()) throw bad(file, kw + ".write", "must be true or false");
        Set<String> users = users(file, k.get("users"), kw + ".users", principal);
        if (keys.putIfAbsent(digest, new Caller(id, principal, access, w != null && w.asBoolean(), users)) != null) {
          throw bad(file, kw, "repeats a key given before (a key belongs to one principal of one tenant)");
        }
      }
    }
    return new Tenants(tenants, keys);
  }

  private static String digest(Path file, JsonNode k, String kw) {
    String plain = text(file, k, kw, "key");
    String hashed = text(file, k, kw, "keySha256");
    if ((plain == null) == (hashed == null)) throw bad(file, kw, "give exactly one of 'key' and 'keySha256'");
    if (plain != null) {
      if (plain.strip().length() < MIN_KEY_CHARS) throw bad(file, kw + ".key", "must be at least " + MIN_KEY_CHARS + " characters");
      return TextNormalizer.sha256Hex(plain.strip());
    }
    String h = hashed.strip().toLowerCase(Locale.ROOT);
    if (!HEX.matcher(h).matches()) throw bad(file, kw + ".keySha256", "must be 64 hex digits (SHA-256 of the key)");
    return h;
  }

  private static Access access(Path file, JsonNode labels, String where) {
    if (labels == null || labels.isNull()) return Access.labels(List.of());
    if (!labels.isArray()) throw bad(file, where, "must be a list of access labels");
    TreeSet<String> out = new TreeSet<>();
    for (JsonNode l : labels) {
      if (!l.isTextual()) throw bad(file, where, "must be a list of strings");
      out.add(l.asText());
    }
    if (out.contains("*")) {
      if (out.size() > 1) throw bad(file, where, "\"*\" (every document) stands alone");
      return Access.ALL;
    }
    try {
      return Access.labels(out);
    } catch (IllegalArgumentException e) {
      throw bad(file, where, e.getMessage());
    }
  }

  /**
   * The users a key acts for: {@code "users"}, a list of user ids or {@code ["*"]} (every user);
   * without it, the one user {@code principal} names. {@code []} is a key that reads no one's memories.
   */
  private static Set<String> users(Path file, JsonNode users, String where, String principal) {
    if (users == null || users.isNull()) return Set.of(principal);
    if (!users.isArray()) throw bad(file, where, "must be a list of user ids, or [\"*\"] for every user");
    TreeSet<String> out = new TreeSet<>();
    for (JsonNode u : users) {
      if (!u.isTextual() || u.asText().isBlank()) throw bad(file, where, "must be a list of non-empty user ids");
      out.add(u.asText());
    }
    if (out.contains(Caller.ANY_USER) && out.size() > 1) throw bad(file, where, "\"*\" (every user) stands alone");
    return out;
  }

  private static String text(Path file, JsonNode o, String where, String field) {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) return null;
    if (!v.isTextual()) throw bad(file, where + "." + field, "must be a string");
    return v.asText();
  }

  private static UsageException bad(Path file, String field, String why) {
    return new UsageException("--tenants " + file + ": " + field + " " + why);
  }
}
