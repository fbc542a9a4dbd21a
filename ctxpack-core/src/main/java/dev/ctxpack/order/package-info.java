/**
 * Ordering: the last stage before rendering, placing the selected passages where models read them
 * best (lost-in-the-middle), best first, or grouped by source.
 */
package dev.ctxpack.order;
