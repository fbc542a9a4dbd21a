/**
 * The HTTP service under load ({@code load}): {@code ctxpack serve} started in its own JVM on loopback
 * over the SciFact index, closed-loop clients at 1, 16 and 64, throughput, latency percentiles,
 * errors, dropped requests and the server's memory; then how quickly each hostile request is refused
 * and that the service still answers after it.
 */
package dev.ctxpack.bench.load;
