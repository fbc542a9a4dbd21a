/**
 * PII redaction, an optional step of {@code pack} (off by default): e-mail addresses, phone
 * numbers, payment cards (Luhn), IBANs (mod 97), IPv4 and IPv6 addresses, CPF and CNPJ (check
 * digits) are replaced in the evidence by typed placeholders ({@code [EMAIL_1]}, {@code [CPF_2]}),
 * numbered per request in order of first appearance, the same value always getting the same
 * placeholder. {@link dev.ctxpack.pii.Redacted} keeps the offset map back to the original text, so
 * spans and citations still resolve to document offsets.
 *
 * <p>Every recogniser is a hand-written scanner that reads each character a bounded number of
 * times: no regular expressions, so no backtracking on hostile input. It sits after selection and
 * compression, before the prompt is counted: placeholders are paid for in the budget.
 */
package dev.ctxpack.pii;
