package dev.ctxpack.app.http;

import dev.ctxpack.index.Access;
import java.util.Objects;

/**
 * Who a service request is from: the tenant its API key belongs to, the key's principal, what the
 * principal may read of the tenant's collections, and whether it may add and remove documents.
 * A service started without {@code --tenants} serves every request as {@link #LOCAL}.
 */
record Caller(String tenant, String principal, Access access, boolean write) {
  /** The one caller of a service without tenants: its one index, everything readable and writable. */
  static final Caller LOCAL = new Caller("", "local", Access.ALL, true);

  Caller {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(access, "access");
  }
}
