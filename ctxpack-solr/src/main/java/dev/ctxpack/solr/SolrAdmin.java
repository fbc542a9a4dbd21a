package dev.ctxpack.solr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.client.solrj.request.schema.FieldTypeDefinition;
import org.apache.solr.client.solrj.request.schema.SchemaRequest;
import org.apache.solr.client.solrj.response.schema.SchemaResponse;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.util.ContentStreamBase;

/**
 * ctxpack's collections as code: the configset shipped in this module's resources, the creation of
 * a collection with it, the schema check on open, and the vector field added for the embedder's
 * dimension. Each collection gets a configset of its own ({@code ctxpack.COLLECTION}): the managed
 * schema lives in the configset, and collections of different dimensions must not share one.
 */
final class SolrAdmin {
  private static final List<String> CONFIG_FILES = List.of("solrconfig.xml", "managed-schema.xml");

  private SolrAdmin() {}

  static boolean exists(CloudSolrClient client, String collection) throws IOException {
    return call(() -> CollectionAdminRequest.listCollections(client).contains(collection), "list the collections");
  }

  /** The configset's name for {@code collection}. */
  static String configSet(String collection) {
    return "ctxpack." + collection;
  }

  /**
   * Creates {@code collection} with ctxpack's configset, {@code shards} shards of {@code replicas}
   * replicas each, and waits until every replica is active.
   */
  static void create(CloudSolrClient client, String collection, int shards, int replicas) throws IOException {
    if (shards < 1 || replicas < 1) throw new IllegalArgumentException("shards and replicas must be >= 1, were " + shards + " and " + replicas);
    String config = configSet(collection);
    call(() -> {
      List<String> have = new ConfigSetAdminRequest.List().process(client).getConfigSets();
      if (!have.contains(config)) {
        new ConfigSetAdminRequest.Upload().setConfigSetName(config)
            .setUploadStream(new ContentStreamBase.ByteArrayStream(configZip(), config + ".zip", "application/zip"))
            .process(client);
      }
      CollectionAdminRequest.Create create = CollectionAdminRequest.createCollection(collection, config, shards, replicas);
      create.setWaitForFinalState(true);
      create.process(client);
      return null;
    }, "create collection " + collection);
  }

  /** Deletes {@code collection} and its configset. */
  static void delete(CloudSolrClient client, String collection) throws IOException {
    call(() -> {
      CollectionAdminRequest.deleteCollection(collection).process(client);
      new ConfigSetAdminRequest.Delete().setConfigSetName(configSet(collection)).process(client);
      return null;
    }, "delete collection " + collection);
  }

  /** Fails unless {@code collection}'s schema is this version of ctxpack's. */
  static void checkSchema(CloudSolrClient client, String collection, String spec) throws IOException {
    String name = call(() -> new SchemaRequest.SchemaName().process(client, collection).getSchemaName(),
        "read the schema of " + collection);
    if (!SolrFields.SCHEMA_NAME.equals(name)) {
      throw new IOException("index " + spec + ": collection " + collection + " has schema '" + name
          + "', not ctxpack's '" + SolrFields.SCHEMA_NAME + "': create it with `ctxpack solr init`, or name another collection");
    }
  }

  /**
   * The dimension of the collection's vector field, or 0 when it has none yet.
   */
  static int vectorDimension(CloudSolrClient client, String collection) throws IOException {
    return call(() -> {
      List<Map<String, Object>> fields = new SchemaRequest.Fields().process(client, collection).getFields();
      String type = null;
      for (Map<String, Object> f : fields) {
        if (SolrFields.VECTOR.equals(f.get("name"))) type = String.valueOf(f.get("type"));
      }
      if (type == null) return 0;
      SchemaResponse.FieldTypeResponse t = new SchemaRequest.FieldType(type).process(client, collection);
      Object dim = t.getFieldType().getAttributes().get("vectorDimension");
      return dim == null ? 0 : Integer.parseInt(String.valueOf(dim));
    }, "read the vector field of " + collection);
  }

  /** Adds the vector field of {@code dimension} dimensions (dot product of unit vectors, HNSW). */
  static void addVectorField(CloudSolrClient client, String collection, int dimension) throws IOException {
    call(() -> {
      String type = "knn_vector_" + dimension;
      Map<String, Object> typeAttrs = new LinkedHashMap<>();
      typeAttrs.put("name", type);
      typeAttrs.put("class", "solr.DenseVectorField");
      typeAttrs.put("vectorDimension", dimension);
      typeAttrs.put("similarityFunction", "dot_product");
      typeAttrs.put("knnAlgorithm", "hnsw");
      FieldTypeDefinition def = new FieldTypeDefinition();
      def.setAttributes(typeAttrs);
      SchemaRequest.AddFieldType addType = new SchemaRequest.AddFieldType(def);
      check(addType.process(client, collection), "add field type " + type);
      Map<String, Object> field = new LinkedHashMap<>();
      field.put("name", SolrFields.VECTOR);
      field.put("type", type);
      field.put("indexed", true);
      field.put("stored", true);
      check(new SchemaRequest.AddField(field).process(client, collection), "add field " + SolrFields.VECTOR);
      return null;
    }, "add the vector field to " + collection);
  }

  private static void check(org.apache.solr.client.solrj.response.schema.SchemaResponse.UpdateResponse r, String what) throws IOException {
    Object errors = r.getResponse().get("errors");
    if (errors != null) throw new IOException(what + " failed: " + errors);
  }

  /** The shipped configset as a zip, for the ConfigSet API. */
  static byte[] configZip() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      for (String f : CONFIG_FILES) {
        zip.putNextEntry(new ZipEntry(f));
        try (InputStream in = SolrAdmin.class.getResourceAsStream("configset/" + f)) {
          if (in == null) throw new IllegalStateException("configset file " + f + " is missing from the jar");
          in.transferTo(zip);
        }
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  interface SolrCall<T> {
    T call() throws SolrServerException, IOException;
  }

  /** Runs a SolrJ call, turning Solr's failures into an {@link IOException} saying what was being done. */
  static <T> T call(SolrCall<T> c, String what) throws IOException {
    try {
      return c.call();
    } catch (SolrServerException | SolrException e) {
      throw new IOException("Solr could not " + what + ": " + e.getMessage(), e);
    }
  }
}
