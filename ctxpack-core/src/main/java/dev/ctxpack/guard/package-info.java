/**
 * Injection defence, between labelling and rendering in the {@code pack} flow: retrieved text is
 * data. {@link dev.ctxpack.guard.InjectionGuard} fences every source with a per-request boundary
 * token that occurs in no content, strips invisible Unicode and escapes look-alikes of the prompt's
 * structure ({@link dev.ctxpack.guard.Sanitizer}), and flags instruction-like spans in English and
 * Portuguese ({@link dev.ctxpack.guard.InjectionDetector} over {@link
 * dev.ctxpack.guard.InjectionRules#DEFAULT}); the {@link dev.ctxpack.guard.InjectionPolicy} says
 * whether a flagged source is kept with a warning, quarantined, or datamarked.
 */
package dev.ctxpack.guard;
