package dev.ctxpack.app.cli;

/** An output format: {@code text} for people, {@code json} for machines (docs/API.md). */
enum Format {
  text,
  json
}
