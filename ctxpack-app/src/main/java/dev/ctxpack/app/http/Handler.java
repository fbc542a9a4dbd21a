package dev.ctxpack.app.http;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A route's work: what {@code caller} asked by {@code request} (a POST's body; the parameters of a
 * GET or DELETE) to the answer. Bad input throws {@link IllegalArgumentException} (400); other
 * answers a route throws as an {@link HttpError}.
 */
@FunctionalInterface
interface Handler {
  ObjectNode handle(Caller caller, ObjectNode request) throws Exception;
}
