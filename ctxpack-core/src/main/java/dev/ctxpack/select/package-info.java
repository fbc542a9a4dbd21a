/**
 * Selection: fills the evidence budget from the deduplicated passages. This version takes whole
 * passages greedily; refill and diversity (MMR) plug in behind the same interface.
 */
package dev.ctxpack.select;
