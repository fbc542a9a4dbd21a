package dev.ctxpack.pii;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The kinds of personal data the redactor recognises. {@code key} is how options name it ({@code
 * --redact-pii=email,cpf}); {@code label} is the placeholder's prefix ({@code [EMAIL_1]}). When two
 * kinds match the same span, the one declared first wins (a 14-digit CNPJ that also passes Luhn is
 * a CNPJ).
 */
public enum PiiType {
  EMAIL("email", "EMAIL"),
  IBAN("iban", "IBAN"),
  CNPJ("cnpj", "CNPJ"),
  CPF("cpf", "CPF"),
  CARD("card", "CARD"),
  IP("ip", "IP"),
  PHONE("phone", "PHONE");

  private final String key;
  private final String label;

  PiiType(String key, String label) {
    this.key = key;
    this.label = label;
  }

  public String key() {
    return key;
  }

  public String label() {
    return label;
  }

  /** The type named by {@code key} ({@code email}, {@code phone}, {@code card}, {@code iban}, {@code ip}, {@code cpf}, {@code cnpj}). */
  public static PiiType parse(String key) {
    String k = key == null ? "" : key.strip().toLowerCase(Locale.ROOT);
    for (PiiType t : values()) if (t.key.equals(k)) return t;
    throw new IllegalArgumentException("unknown PII type '" + key + "': use one of " + keys());
  }

  /** {@code all} or a comma-separated list of keys, e.g. {@code email,cpf}. */
  public static Set<PiiType> parseList(String list) {
    if (list == null || list.isBlank()) throw new IllegalArgumentException("PII types must not be empty: use all or " + keys());
    if (list.strip().equalsIgnoreCase("all")) return EnumSet.allOf(PiiType.class);
    EnumSet<PiiType> out = EnumSet.noneOf(PiiType.class);
    for (String k : list.split(",")) out.add(parse(k));
    return out;
  }

  static String keys() {
    return Arrays.stream(values()).map(PiiType::key).collect(Collectors.joining(", "));
  }
}
