package org.chartstream.models.rerank;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a minimal ONNX {@code ModelProto} in protobuf wire format, by hand: no onnx or protobuf library can be
 * installed here, and ONNX Runtime only needs the bytes. Covers what the test graphs use: nodes with integer
 * attributes, float and int64 initializers, and int64/float tensor inputs and outputs with symbolic or fixed
 * dimensions.
 *
 * <p>Field numbers are those of {@code onnx.proto} (ModelProto: ir_version 1, graph 7, opset_import 8; GraphProto:
 * node 1, name 2, initializer 5, input 11, output 12; NodeProto: input 1, output 2, name 3, op_type 4, attribute 5;
 * AttributeProto: name 1, i 3, type 20; TensorProto: dims 1, data_type 2, name 8, raw_data 9;
 * ValueInfoProto: name 1, type 2; TypeProto: tensor_type 1; TypeProto.Tensor: elem_type 1, shape 2;
 * TensorShapeProto: dim 1; Dimension: dim_value 1, dim_param 2).
 */
final class OnnxGraphWriter {
    static final int FLOAT = 1;
    static final int INT64 = 7;

    private static final int ATTRIBUTE_INT = 2;

    private final List<byte[]> nodes = new ArrayList<>();
    private final List<byte[]> initializers = new ArrayList<>();
    private final List<byte[]> inputs = new ArrayList<>();
    private final List<byte[]> outputs = new ArrayList<>();
    private final String name;

    OnnxGraphWriter(String name) {
        this.name = name;
    }

    /** A graph input or output dimension: a number, or a symbolic name such as "batch". */
    record Dim(long value, String symbol) {
        static Dim of(long value) {
            return new Dim(value, null);
        }

        static Dim symbolic(String symbol) {
            return new Dim(0, symbol);
        }
    }

    /** One integer node attribute (Cast's "to", ReduceSum's "keepdims", Concat's "axis"). */
    record Attribute(String name, long value) {
        static Attribute integer(String name, long value) {
            return new Attribute(name, value);
        }
    }

    OnnxGraphWriter input(String name, int elemType, Dim... dims) {
        inputs.add(valueInfo(name, elemType, dims));
        return this;
    }

    OnnxGraphWriter output(String name, int elemType, Dim... dims) {
        outputs.add(valueInfo(name, elemType, dims));
        return this;
    }

    OnnxGraphWriter node(String opType, List<String> in, List<String> out, Attribute... attributes) {
        Proto n = new Proto();
        in.forEach(s -> n.string(1, s));
        out.forEach(s -> n.string(2, s));
        n.string(3, opType + "_" + nodes.size());
        n.string(4, opType);
        for (Attribute a : attributes) {
            n.message(5, new Proto().string(1, a.name()).varint(3, a.value()).varint(20, ATTRIBUTE_INT));
        }
        nodes.add(n.bytes());
        return this;
    }

    OnnxGraphWriter floatInitializer(String name, long[] dims, float... values) {
        ByteBuffer raw = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            raw.putFloat(v);
        }
        initializers.add(tensor(name, FLOAT, dims, raw.array()));
        return this;
    }

    OnnxGraphWriter int64Initializer(String name, long[] dims, long... values) {
        ByteBuffer raw = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            raw.putLong(v);
        }
        initializers.add(tensor(name, INT64, dims, raw.array()));
        return this;
    }

    /** The serialised model: IR version 8, default-domain opset 13. */
    byte[] toModelBytes() {
        Proto graph = new Proto();
        nodes.forEach(b -> graph.bytes(1, b));
        graph.string(2, name);
        initializers.forEach(b -> graph.bytes(5, b));
        inputs.forEach(b -> graph.bytes(11, b));
        outputs.forEach(b -> graph.bytes(12, b));
        return new Proto()
                .varint(1, 8)
                .string(2, "chartstream-test")
                .message(7, graph)
                .message(8, new Proto().string(1, "").varint(2, 13))
                .bytes();
    }

    private static byte[] tensor(String name, int dataType, long[] dims, byte[] raw) {
        Proto t = new Proto();
        for (long d : dims) {
            t.varint(1, d);
        }
        return t.varint(2, dataType).string(8, name).bytes(9, raw).bytes();
    }

    private static byte[] valueInfo(String name, int elemType, Dim... dims) {
        Proto shape = new Proto();
        for (Dim d : dims) {
            shape.message(1, d.symbol() == null ? new Proto().varint(1, d.value()) : new Proto().string(2, d.symbol()));
        }
        Proto tensorType = new Proto().varint(1, elemType).message(2, shape);
        return new Proto().string(1, name).message(2, new Proto().message(1, tensorType)).bytes();
    }

    /** Protobuf wire format: varint (type 0) and length-delimited (type 2) fields. */
    private static final class Proto {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Proto varint(int field, long value) {
            rawVarint((long) field << 3);
            rawVarint(value);
            return this;
        }

        Proto bytes(int field, byte[] value) {
            rawVarint(((long) field << 3) | 2);
            rawVarint(value.length);
            out.writeBytes(value);
            return this;
        }

        Proto string(int field, String value) {
            return bytes(field, value.getBytes(StandardCharsets.UTF_8));
        }

        Proto message(int field, Proto value) {
            return bytes(field, value.bytes());
        }

        byte[] bytes() {
            return out.toByteArray();
        }

        private void rawVarint(long value) {
            while ((value & ~0x7FL) != 0) {
                out.write((int) ((value & 0x7F) | 0x80));
                value >>>= 7;
            }
            out.write((int) value);
        }
    }
}
