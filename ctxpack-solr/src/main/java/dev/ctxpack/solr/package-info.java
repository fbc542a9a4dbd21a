/**
 * The SolrCloud index backend: {@link dev.ctxpack.solr.SolrIndex} keeps the index contract over a
 * sharded, replicated collection named by spec ({@code solr+zk://…}, {@code solr:http://…}),
 * {@link dev.ctxpack.solr.SolrCollections} creates collections with ctxpack's configset, and
 * {@link dev.ctxpack.solr.SolrDevProcess} runs a loopback cluster for trying it.
 */
package dev.ctxpack.solr;
