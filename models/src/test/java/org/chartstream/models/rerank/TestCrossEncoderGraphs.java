package org.chartstream.models.rerank;

import static org.chartstream.models.rerank.OnnxGraphWriter.FLOAT;
import static org.chartstream.models.rerank.OnnxGraphWriter.INT64;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.chartstream.models.rerank.OnnxGraphWriter.Attribute;
import org.chartstream.models.rerank.OnnxGraphWriter.Dim;

/**
 * Cross-encoder stand-ins whose logit is a known function of what the encoder feeds them, so a test can compute the
 * expected score in Java from the pair's token ids and types:
 *
 * <pre>logit = ID_WEIGHT · Σ(input_ids · mask) + TYPE_WEIGHT · Σ(token_type_ids · mask) + LENGTH_WEIGHT · Σ mask + BIAS</pre>
 *
 * Wrong padding (a padded position with mask 1 or a non-zero type), lost or reordered tokens, swapped rows in a batch
 * or a missing sigmoid all change the score. Real cross-encoder weights cannot be downloaded here.
 */
final class TestCrossEncoderGraphs {
    static final float ID_WEIGHT = 1e-5f;
    static final float TYPE_WEIGHT = 0.05f;
    static final float LENGTH_WEIGHT = -0.1f;
    static final float BIAS = 0.5f;

    /** The BERT tokenizer that ships with the embedded default model; any pair tokenizer would do. */
    static final String BERT_TOKENIZER = "all-minilm-l6-v2-tokenizer.json";

    private TestCrossEncoderGraphs() {
    }

    /** Inputs input_ids, attention_mask, token_type_ids; output logits [B,1]. */
    static byte[] singleLogit() {
        return withTokenTypes(new float[] {ID_WEIGHT, TYPE_WEIGHT, LENGTH_WEIGHT}, new float[] {BIAS}, 1);
    }

    /**
     * Output logits [B,2], a classifier head: column 0 is a distractor (the negated features), column 1 the
     * relevance logit of {@link #singleLogit()}.
     */
    static byte[] twoColumnHead() {
        return withTokenTypes(new float[] {-ID_WEIGHT, ID_WEIGHT, -TYPE_WEIGHT, TYPE_WEIGHT, -LENGTH_WEIGHT, LENGTH_WEIGHT},
                new float[] {3f, BIAS}, 2);
    }

    /** Like an XLM-RoBERTa export: no token_type_ids input; logit = ID_WEIGHT·Σids + LENGTH_WEIGHT·Σmask + BIAS. */
    static byte[] withoutTokenTypes() {
        OnnxGraphWriter g = new OnnxGraphWriter("cross-encoder-without-token-types");
        batchInput(g, "input_ids");
        batchInput(g, "attention_mask");
        g.output("logits", FLOAT, Dim.symbolic("batch"), Dim.of(1));
        g.int64Initializer("sum_axes", new long[] {1}, 1);
        g.floatInitializer("weights", new long[] {2, 1}, ID_WEIGHT, LENGTH_WEIGHT);
        g.floatInitializer("bias", new long[] {1}, BIAS);
        g.node("Cast", List.of("input_ids"), List.of("ids_f"), Attribute.integer("to", FLOAT));
        g.node("Cast", List.of("attention_mask"), List.of("mask_f"), Attribute.integer("to", FLOAT));
        g.node("Mul", List.of("ids_f", "mask_f"), List.of("ids_masked"));
        g.node("ReduceSum", List.of("ids_masked", "sum_axes"), List.of("sum_ids"), Attribute.integer("keepdims", 1));
        g.node("ReduceSum", List.of("mask_f", "sum_axes"), List.of("sum_mask"), Attribute.integer("keepdims", 1));
        g.node("Concat", List.of("sum_ids", "sum_mask"), List.of("features"), Attribute.integer("axis", 1));
        g.node("MatMul", List.of("features", "weights"), List.of("scaled"));
        g.node("Add", List.of("scaled", "bias"), List.of("logits"));
        return g.toModelBytes();
    }

    /** A graph that is not a cross-encoder: one float input "x", output its copy. */
    static byte[] notACrossEncoder() {
        OnnxGraphWriter g = new OnnxGraphWriter("identity");
        g.input("x", FLOAT, Dim.symbolic("n"));
        g.output("y", FLOAT, Dim.symbolic("n"));
        g.node("Identity", List.of("x"), List.of("y"));
        return g.toModelBytes();
    }

    /** The logit {@link #singleLogit()} computes for one unpadded pair. */
    static double expectedLogit(PairTokenizer.PairEncoding pair) {
        double ids = 0;
        double types = 0;
        for (int k = 0; k < pair.length(); k++) {
            ids += pair.ids()[k];
            types += pair.typeIds()[k];
        }
        return ID_WEIGHT * ids + TYPE_WEIGHT * types + LENGTH_WEIGHT * pair.length() + BIAS;
    }

    /** The logit {@link #withoutTokenTypes()} computes for one unpadded pair. */
    static double expectedLogitWithoutTypes(PairTokenizer.PairEncoding pair) {
        double ids = 0;
        for (long id : pair.ids()) {
            ids += id;
        }
        return ID_WEIGHT * ids + LENGTH_WEIGHT * pair.length() + BIAS;
    }

    static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    /** Writes the graph to {@code dir} and returns a descriptor over it and the BERT tokenizer. */
    static CrossEncoderDescriptor descriptor(Path dir, String id, byte[] graph, int maxTokens) {
        try {
            Path file = dir.resolve(id + ".onnx");
            Files.write(file, graph);
            return new CrossEncoderDescriptor(id, "file:" + file, BERT_TOKENIZER, maxTokens);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] withTokenTypes(float[] weights, float[] bias, int columns) {
        OnnxGraphWriter g = new OnnxGraphWriter("cross-encoder-stand-in");
        batchInput(g, "input_ids");
        batchInput(g, "attention_mask");
        batchInput(g, "token_type_ids");
        g.output("logits", FLOAT, Dim.symbolic("batch"), Dim.of(columns));
        g.int64Initializer("sum_axes", new long[] {1}, 1);
        g.floatInitializer("weights", new long[] {3, columns}, weights);
        g.floatInitializer("bias", new long[] {columns}, bias);
        g.node("Cast", List.of("input_ids"), List.of("ids_f"), Attribute.integer("to", FLOAT));
        g.node("Cast", List.of("attention_mask"), List.of("mask_f"), Attribute.integer("to", FLOAT));
        g.node("Cast", List.of("token_type_ids"), List.of("types_f"), Attribute.integer("to", FLOAT));
        g.node("Mul", List.of("ids_f", "mask_f"), List.of("ids_masked"));
        g.node("Mul", List.of("types_f", "mask_f"), List.of("types_masked"));
        g.node("ReduceSum", List.of("ids_masked", "sum_axes"), List.of("sum_ids"), Attribute.integer("keepdims", 1));
        g.node("ReduceSum", List.of("types_masked", "sum_axes"), List.of("sum_types"), Attribute.integer("keepdims", 1));
        g.node("ReduceSum", List.of("mask_f", "sum_axes"), List.of("sum_mask"), Attribute.integer("keepdims", 1));
        g.node("Concat", List.of("sum_ids", "sum_types", "sum_mask"), List.of("features"), Attribute.integer("axis", 1));
        g.node("MatMul", List.of("features", "weights"), List.of("scaled"));
        g.node("Add", List.of("scaled", "bias"), List.of("logits"));
        return g.toModelBytes();
    }

    private static void batchInput(OnnxGraphWriter g, String name) {
        g.input(name, INT64, Dim.symbolic("batch"), Dim.symbolic("sequence"));
    }
}
