package dev.ctxpack.onnx;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes small real ONNX models (the {@code onnx.proto} protobuf, by hand) for the cross-encoder
 * tests, since no trained cross-encoder can be fetched here. Two kinds:
 *
 * <ul>
 *   <li>{@link #overlapCrossEncoder}: a graph over BERT pair inputs whose logit is the number of
 *       query word pieces (token type 0, not {@code [CLS]}/{@code [SEP]}/padding) that also occur
 *       in the passage (token type 1) — a lexical cross-encoder, so tests can predict the ranking
 *       and see that the segments and the attention mask reach the model as they should. Variants:
 *       logits {@code [n, 2]} (negative, positive), and no {@code token_type_ids} input (the
 *       segments are then found by counting {@code [SEP]}s).
 *   <li>{@link #withClsHead}: a real transformer (the MiniLM sentence-transformer shipped in the
 *       langchain4j jar) given a linear head on its {@code [CLS]} vector that outputs {@code
 *       logits [n, 1]}. Untrained, so its ranking means nothing, but a transformer's outputs depend
 *       on padding and the attention mask and fail past 512 positions, which the batching and
 *       truncation tests need. The head is appended as a second {@code graph} field: protobuf
 *       merges it into the first, so the result is the original graph plus the head's nodes,
 *       initializers and output.
 * </ul>
 *
 * Only opset-11 operators are used (IR version 6), as in the MiniLM export.
 */
final class OnnxGraphs {
  private OnnxGraphs() {}

  static final long CLS = 101;
  static final long SEP = 102;

  // TensorProto.DataType
  private static final int FLOAT = 1;
  private static final int INT64 = 7;
  // AttributeProto.AttributeType
  private static final int ATTR_INT = 2;
  private static final int ATTR_INTS = 7;

  /** The overlap cross-encoder; {@code twoLogits} outputs [n, 2], {@code tokenTypes} declares token_type_ids. */
  static byte[] overlapCrossEncoder(boolean twoLogits, boolean tokenTypes) {
    Proto g = new Proto();
    g.string(2, "overlap-cross-encoder");
    g.message(11, tensorValue("input_ids", INT64, "batch", "tokens"));
    g.message(11, tensorValue("attention_mask", INT64, "batch", "tokens"));
    if (tokenTypes) g.message(11, tensorValue("token_type_ids", INT64, "batch", "tokens"));
    g.message(12, twoLogits ? tensorValue("logits", FLOAT, "batch", 2L) : tensorValue("logits", FLOAT, "batch", 1L));
    g.message(5, int64Scalar("c_cls", CLS));
    g.message(5, int64Scalar("c_sep", SEP));
    g.message(5, int64Scalar("c_zero", 0));
    g.message(5, int64Scalar("c_one", 1));

    g.message(1, node("Equal", List.of("input_ids", "c_cls"), "is_cls"));
    g.message(1, node("Equal", List.of("input_ids", "c_sep"), "is_sep"));
    g.message(1, node("Or", List.of("is_cls", "is_sep"), "special"));
    g.message(1, node("Not", List.of("special"), "plain"));
    g.message(1, node("Equal", List.of("attention_mask", "c_one"), "real"));
    g.message(1, node("And", List.of("plain", "real"), "word"));
    if (tokenTypes) {
      g.message(1, node("Equal", List.of("token_type_ids", "c_zero"), "is_q"));
      g.message(1, node("Equal", List.of("token_type_ids", "c_one"), "is_p"));
    } else {
      // segment = how many [SEP] came before (or at) the position: 0 in the query, 1 in the passage
      g.message(1, node("Cast", List.of("is_sep"), "sep_count", intAttr("to", INT64)));
      g.message(1, node("CumSum", List.of("sep_count", "c_one"), "segment"));
      g.message(1, node("Equal", List.of("segment", "c_zero"), "is_q"));
      g.message(1, node("Equal", List.of("segment", "c_one"), "is_p"));
    }
    g.message(1, node("And", List.of("word", "is_q"), "q_word"));
    g.message(1, node("And", List.of("word", "is_p"), "p_word"));
    g.message(1, node("Unsqueeze", List.of("input_ids"), "ids_rows", intsAttr("axes", 2)));
    g.message(1, node("Unsqueeze", List.of("input_ids"), "ids_cols", intsAttr("axes", 1)));
    g.message(1, node("Equal", List.of("ids_rows", "ids_cols"), "same"));
    g.message(1, node("Unsqueeze", List.of("p_word"), "p_cols", intsAttr("axes", 1)));
    g.message(1, node("And", List.of("same", "p_cols"), "hit"));
    g.message(1, node("Cast", List.of("hit"), "hit_f", intAttr("to", FLOAT)));
    g.message(1, node("ReduceMax", List.of("hit_f"), "found", intsAttr("axes", 2), intAttr("keepdims", 0)));
    g.message(1, node("Cast", List.of("q_word"), "q_f", intAttr("to", FLOAT)));
    g.message(1, node("Mul", List.of("found", "q_f"), "counted"));
    if (twoLogits) {
      g.message(1, node("ReduceSum", List.of("counted"), "score", intsAttr("axes", 1), intAttr("keepdims", 1)));
      g.message(1, node("Neg", List.of("score"), "negative"));
      g.message(1, node("Concat", List.of("negative", "score"), "logits", intAttr("axis", 1)));
    } else {
      g.message(1, node("ReduceSum", List.of("counted"), "logits", intsAttr("axes", 1), intAttr("keepdims", 1)));
    }
    return model(g);
  }

  /** A model whose only input is not named like a cross-encoder's. */
  static byte[] wrongInputs() {
    Proto g = new Proto();
    g.string(2, "wrong-inputs");
    g.message(11, tensorValue("tokens", INT64, "batch", "tokens"));
    g.message(12, tensorValue("logits", FLOAT, "batch", 1L));
    g.message(1, node("Cast", List.of("tokens"), "as_float", intAttr("to", FLOAT)));
    g.message(1, node("ReduceSum", List.of("as_float"), "logits", intsAttr("axes", 1), intAttr("keepdims", 1)));
    return model(g);
  }

  /**
   * {@code bertModel} (an ONNX BERT encoder with output {@code last_hidden_state [n, tokens,
   * hidden]}) plus {@code logits = last_hidden_state[:, 0, :] · w}, with a fixed {@code w}.
   */
  static byte[] withClsHead(byte[] bertModel, int hidden) {
    float[] w = new float[hidden];
    for (int i = 0; i < hidden; i++) w[i] = (float) Math.sin(1.0 + 0.37 * i);
    Proto g = new Proto();
    g.message(5, int64Scalar("ctxpack_head_first", 0));
    g.message(5, floatTensor("ctxpack_head_w", w, hidden, 1));
    g.message(1, node("Gather", List.of("last_hidden_state", "ctxpack_head_first"), "ctxpack_head_cls", intAttr("axis", 1)));
    g.message(1, node("MatMul", List.of("ctxpack_head_cls", "ctxpack_head_w"), "logits"));
    g.message(12, tensorValue("logits", FLOAT, "batch", 1L));
    Proto delta = new Proto();
    delta.message(7, g);
    byte[] out = new byte[bertModel.length + delta.size()];
    System.arraycopy(bertModel, 0, out, 0, bertModel.length);
    System.arraycopy(delta.bytes(), 0, out, bertModel.length, delta.size());
    return out;
  }

  private static byte[] model(Proto graph) {
    Proto m = new Proto();
    m.varint(1, 6); // ir_version
    m.string(2, "ctxpack-tests");
    m.message(7, graph);
    Proto opset = new Proto();
    opset.string(1, "");
    opset.varint(2, 11);
    m.message(8, opset);
    return m.bytes();
  }

  private static Proto node(String op, List<String> inputs, String output, Proto... attributes) {
    Proto n = new Proto();
    for (String in : inputs) n.string(1, in);
    n.string(2, output);
    n.string(3, op + "_" + output);
    n.string(4, op);
    for (Proto a : attributes) n.message(5, a);
    return n;
  }

  private static Proto intAttr(String name, long value) {
    Proto a = new Proto();
    a.string(1, name);
    a.varint(3, value);
    a.varint(20, ATTR_INT);
    return a;
  }

  private static Proto intsAttr(String name, long... values) {
    Proto a = new Proto();
    a.string(1, name);
    for (long v : values) a.varint(8, v);
    a.varint(20, ATTR_INTS);
    return a;
  }

  private static Proto int64Scalar(String name, long value) {
    Proto t = new Proto();
    t.varint(2, INT64);
    t.string(8, name);
    t.bytes(9, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array());
    return t;
  }

  private static Proto floatTensor(String name, float[] values, long... dims) {
    Proto t = new Proto();
    for (long d : dims) t.varint(1, d);
    t.varint(2, FLOAT);
    t.string(8, name);
    ByteBuffer raw = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (float v : values) raw.putFloat(v);
    t.bytes(9, raw.array());
    return t;
  }

  /** A ValueInfoProto for a tensor; each dim is a String (symbolic) or a Long (fixed). */
  private static Proto tensorValue(String name, int elemType, Object... dims) {
    Proto shape = new Proto();
    for (Object d : dims) {
      Proto dim = new Proto();
      if (d instanceof String) dim.string(2, (String) d);
      else dim.varint(1, (Long) d);
      shape.message(1, dim);
    }
    Proto tensor = new Proto();
    tensor.varint(1, elemType);
    tensor.message(2, shape);
    Proto type = new Proto();
    type.message(1, tensor);
    Proto v = new Proto();
    v.string(1, name);
    v.message(2, type);
    return v;
  }

  /** Protobuf wire format: varint (type 0) and length-delimited (type 2) fields. */
  private static final class Proto {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    void varint(int field, long value) {
      raw((long) field << 3);
      raw(value);
    }

    void bytes(int field, byte[] value) {
      raw(((long) field << 3) | 2);
      raw(value.length);
      out.writeBytes(value);
    }

    void string(int field, String value) {
      bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    void message(int field, Proto value) {
      bytes(field, value.bytes());
    }

    byte[] bytes() {
      return out.toByteArray();
    }

    int size() {
      return out.size();
    }

    private void raw(long v) {
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
    }
  }
}
