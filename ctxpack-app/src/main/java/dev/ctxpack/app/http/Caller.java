package dev.ctxpack.app.http;

import dev.ctxpack.index.Access;
import java.util.Objects;
import java.util.Set;

/**
 * Who a service request is from: the tenant its API key belongs to, the key's principal, what the
 * principal may read of the tenant's collections, whether it may add and remove documents, and the
 * users whose memories it may read, add and delete ({@code users}; {@link #ANY_USER} alone: every
 * user, for a service acting for its users). A service started without {@code --tenants} serves
 * every request as {@link #LOCAL}.
 */
record Caller(String tenant, String principal, Access access, boolean write, Set<String> users) {
  /** The {@code users} entry of a key that acts for every user of its tenant. */
  static final String ANY_USER = "*";
  /** The one caller of a service without tenants: its one index, everything readable and writable, every user. */
  static final Caller LOCAL = new Caller("", "local", Access.ALL, true, Set.of(ANY_USER));

  Caller {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(access, "access");
    users = Set.copyOf(users);
  }

  /** A caller that acts for one user, the one its principal names (a key given no {@code "users"}). */
  Caller(String tenant, String principal, Access access, boolean write) {
    this(tenant, principal, access, write, Set.of(principal));
  }

  /** Whether this caller may read, add and delete the memories of {@code user}. */
  boolean actsFor(String user) {
    return users.contains(ANY_USER) || users.contains(user);
  }
}
