/**
 * Ordering: the last stage before rendering, placing the selected passages (one SOURCES block each)
 * where models read them best (lost-in-the-middle), best first, grouped by source or by topic, or in
 * reading order (document position).
 */
package dev.ctxpack.order;
