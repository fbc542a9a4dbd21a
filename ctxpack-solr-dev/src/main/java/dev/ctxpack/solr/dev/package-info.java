/** A SolrCloud on one machine for trying ctxpack's Solr backend: {@link dev.ctxpack.solr.dev.SolrDev}. */
package dev.ctxpack.solr.dev;
