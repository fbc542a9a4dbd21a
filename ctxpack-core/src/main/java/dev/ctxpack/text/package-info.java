/**
 * Text utilities shared by every stage: storage and identity normalisation with content hashes,
 * Portuguese/English language detection, and sentence segmentation.
 */
package dev.ctxpack.text;
