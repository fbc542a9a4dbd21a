package dev.ctxpack.app.json;

import dev.ctxpack.assemble.AssembleRequest;
import dev.ctxpack.assemble.Assembler;

/**
 * {@code assemble}: one request (docs/API.md, read by {@link AssembleRequests}) to its window
 * ({@link AssembleViews#assembly}): {@code --request}, a {@code --batch} line and {@code POST
 * /v1/assemble}.
 */
public final class AssembleEndpoint {
  private AssembleEndpoint() {}

  /** The endpoint over {@code assembler}: a request retrieves evidence when the assembler has a packer and it does not say otherwise. */
  public static JsonEndpoint of(Assembler assembler) {
    return req -> {
      AssembleRequest r = AssembleRequests.parse(req, assembler.retrieves());
      return AssembleViews.assembly(Requests.text(req, "id", null), r.model().name(), assembler.assemble(r));
    };
  }
}
