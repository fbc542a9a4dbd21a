package dev.ctxpack.app.json;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One JSON request object in, one JSON result object out: what one {@code --batch} line of a
 * command does, and what {@code ctxpack serve} does with the body of a request to that command's
 * endpoint. Both build it with the same factory of this package ({@link SearchEndpoint}, {@link
 * PackEndpoint}...), so the batch mode and the service cannot drift.
 *
 * <p>Bad input throws {@link IllegalArgumentException} or {@link dev.ctxpack.app.UsageException}
 * with a message naming the field (a batch error line; HTTP 400); any other exception is a fault
 * (HTTP 500). Unknown fields are ignored. Implementations are called from several threads at once
 * by the service, so they keep no per-request state outside the call. The service runs them on its
 * own pool and interrupts one that outlives {@code --request-timeout-ms}: a long loop may check
 * {@link Thread#interrupted()}, and blocking calls end with {@link InterruptedException}.
 */
@FunctionalInterface
public interface JsonEndpoint {
  ObjectNode handle(ObjectNode request) throws Exception;
}
