package dev.ctxpack.index;

import java.io.IOException;

/**
 * An optional capability of an {@link Index} that can hold documents written before access labels
 * were indexed (ctxpack 0.1): those carry no access terms, so only {@link Access#ALL} reads them. A
 * service with tenants warns about them at start ({@code index instanceof AccessTermsAudit}).
 */
public interface AccessTermsAudit {
  /** How many stored documents carry no access terms: 0 for an index written by this version. */
  int documentsWithoutAccessTerms() throws IOException;
}
