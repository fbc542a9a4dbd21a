/** The PII redaction evaluation ({@code ./ctxpack eval pii}): recall, false positives, throughput, adversarial time. */
package dev.ctxpack.bench.pii;
