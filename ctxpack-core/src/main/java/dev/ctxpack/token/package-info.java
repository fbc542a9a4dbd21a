/**
 * Token counting: the {@link dev.ctxpack.token.Tokenizer} interface (JTokkit's {@code o200k_base},
 * the default, and {@code cl100k_base}) and the {@link dev.ctxpack.token.ModelProfiles} registry of
 * context windows. Every budget in ctxpack is counted here.
 */
package dev.ctxpack.token;
