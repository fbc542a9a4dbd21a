package dev.ctxpack.pack;

import dev.ctxpack.model.ContextPackage;
import java.io.IOException;

/** Turns a query into the context a model should see. See {@link DefaultContextPacker} for the flow. */
public interface ContextPacker {
  ContextPackage pack(String query, PackOptions options) throws IOException;
}
