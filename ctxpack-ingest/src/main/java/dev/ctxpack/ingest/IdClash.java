package dev.ctxpack.ingest;

/**
 * Two documents of one ingest under one id. A content-derived id repeated, or a given id repeated
 * with the same content, is an exact copy (a duplicate of the first, listed in {@code duplicatesOf});
 * a given id ({@code _id}/{@code id}) repeated with other content is a clash: the later document is
 * not ingested and fails, naming the id and both places, so nothing is lost silently.
 */
final class IdClash {
  private IdClash() {}

  /**
   * Why the document under {@code id} (its id given in the input when {@code given}, with content
   * hash {@code hash}) cannot be ingested after {@code earlier} (where the id was first seen, a NUL,
   * that document's hash); null when it is an exact copy.
   */
  static String of(String id, boolean given, String earlier, String hash) {
    int cut = earlier.indexOf('\u0000');
    String where = earlier.substring(0, cut);
    if (!given || earlier.substring(cut + 1).equals(hash)) return null;
    return "id '" + id + "' was already given to a different document in this run (" + where
        + "): ids must be unique within an ingest; this document was not ingested";
  }
}
