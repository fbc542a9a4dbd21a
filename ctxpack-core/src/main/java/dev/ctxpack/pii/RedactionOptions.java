package dev.ctxpack.pii;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/** Which kinds of PII to redact; {@link #off()} (the default) redacts nothing. */
public record RedactionOptions(Set<PiiType> types) {
  public RedactionOptions {
    types = types == null || types.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(types));
  }

  public static RedactionOptions off() {
    return new RedactionOptions(Set.of());
  }

  public static RedactionOptions all() {
    return new RedactionOptions(EnumSet.allOf(PiiType.class));
  }

  /** {@code all} or a comma-separated list of type keys ({@code email,phone,card,iban,ip,cpf,cnpj}). */
  public static RedactionOptions parse(String list) {
    return new RedactionOptions(PiiType.parseList(list));
  }

  public boolean on() {
    return !types.isEmpty();
  }

  /** {@code off}, {@code all}, or the keys in declaration order, e.g. {@code email,cpf}. */
  public String describe() {
    if (!on()) return "off";
    if (types.size() == PiiType.values().length) return "all";
    return EnumSet.copyOf(types).stream().map(PiiType::key).collect(Collectors.joining(","));
  }
}
