/** The SolrCloud backend measured beside the embedded index in one run: {@link dev.ctxpack.bench.solr.SolrEval}. */
package dev.ctxpack.bench.solr;
