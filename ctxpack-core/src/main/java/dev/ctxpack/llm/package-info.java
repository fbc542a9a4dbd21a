/**
 * The chat-model SPI: {@link LlmClient} sends messages to a model and returns its reply. ctxpack
 * never needs one (everything has an offline path); when configured, answer verification can ask
 * it to judge claims, and {@code dev.ctxpack.pack.PlanExecutor} runs a prompt plan's calls with it.
 * {@code dev.ctxpack.onnx.OpenAiChatClient} speaks to any OpenAI-compatible chat endpoint.
 */
package dev.ctxpack.llm;
