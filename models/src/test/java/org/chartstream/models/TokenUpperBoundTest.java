package org.chartstream.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ModelTokenizer#tokenUpperBound} never undercounts on the real tokenizer of any model packaged as a Maven artifact, and the chunker's
 * one-window shortcut that uses it gives exactly the chunks the counted path gives.
 */
class TokenUpperBoundTest {
    private static final String PRINTABLE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?'\"()[]{}<>/\\|-_+=*&^%$#@~`\n\t";

    @Test
    void theBoundIsAtLeastTheCountOnEveryBuiltInTokenizerAndNoneIsGivenOutsideAscii() {
        Random random = new Random(7);
        List<String> texts = new ArrayList<>(List.of("", "a", "[CLS] [SEP] [UNK]", "hypertension", "BP 140/90.", "x".repeat(150),
                "!!!???...", "a\u0000b\u0007c\u007f", "supercalifragilisticexpialidocious-antidisestablishmentarianism"));
        for (int i = 0; i < 300; i++) {
            texts.add(randomPrintable(random, 1 + random.nextInt(400)));
        }
        // the models packaged as Maven artifacts (a descriptor whose files live on disk is not here)
        for (ModelDescriptor d : ModelDescriptor.known().stream().filter(m -> !ModelResources.isFile(m.onnxResource())).toList()) {
            try (ModelTokenizer tokenizer = ModelTokenizer.load(d)) {
                for (String text : texts) {
                    assertThat(tokenizer.tokenUpperBound(text)).as("%s: %s", d.id(), text).isGreaterThanOrEqualTo(tokenizer.countTokens(text));
                }
                assertThat(tokenizer.tokenUpperBound("José")).as(d.id()).isEqualTo(-1);
                assertThat(tokenizer.tokenUpperBound("\uD55C\uAD6D")).as(d.id()).isEqualTo(-1); // Hangul: NFD makes more characters
            }
        }
    }

    @Test
    void onlyABertWordPieceTokenizerGetsTheBound() throws Exception {
        assertThat(ModelTokenizer.boundedByPrintableAscii("{\"model\":{\"type\":\"WordPiece\"},\"normalizer\":{\"type\":\"BertNormalizer\"},\"pre_tokenizer\":{\"type\":\"BertPreTokenizer\"}}".getBytes(StandardCharsets.UTF_8)))
                .isTrue();
        assertThat(ModelTokenizer.boundedByPrintableAscii("{\"model\":{\"type\":\"Unigram\"},\"normalizer\":{\"type\":\"BertNormalizer\"},\"pre_tokenizer\":{\"type\":\"BertPreTokenizer\"}}".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
        // a Metaspace pre-tokenizer adds a word-start symbol that can be a token of its own
        assertThat(ModelTokenizer.boundedByPrintableAscii("{\"model\":{\"type\":\"WordPiece\"},\"normalizer\":{\"type\":\"BertNormalizer\"},\"pre_tokenizer\":{\"type\":\"Metaspace\"}}".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
        assertThat(ModelTokenizer.boundedByPrintableAscii("{\"model\":{\"type\":\"WordPiece\"}}".getBytes(StandardCharsets.UTF_8))).isFalse();
        // only each section's own type counts: a BERT normaliser nested in a sequence of normalisers is not the normaliser
        assertThat(ModelTokenizer.boundedByPrintableAscii(("{\"added_tokens\":[{\"type\":\"x\"}],\"model\":{\"vocab\":{\"a\":0,\"type\":1},"
                + "\"type\":\"WordPiece\"},\"normalizer\":{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"BertNormalizer\"}]},"
                + "\"pre_tokenizer\":{\"type\":\"BertPreTokenizer\"}}").getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThat(ModelTokenizer.boundedByPrintableAscii(("{\"model\":{\"vocab\":{\"type\":7},\"type\":\"WordPiece\"},"
                + "\"normalizer\":{\"type\":\"BertNormalizer\"},\"pre_tokenizer\":{\"type\":\"BertPreTokenizer\"}}")
                .getBytes(StandardCharsets.UTF_8))).as("a vocabulary entry named type is skipped").isTrue();
    }

    @Test
    void chunkingUnderAHeaderGivesTheCountedPathsChunksAroundTheWindow() {
        Random random = new Random(11);
        try (ModelTokenizer tokenizer = ModelTokenizer.load(ModelDescriptor.ALL_MINILM_L6_V2)) {
            for (int window : new int[] {16, 40, 254}) {
                TokenChunker chunker = new TokenChunker(tokenizer, window, Math.min(8, window / 2), 12);
                for (int i = 0; i < 150; i++) {
                    String header = "record: " + randomPrintable(random, 1 + random.nextInt(window)).strip();
                    String body = randomPrintable(random, 1 + random.nextInt(3 * window));
                    if (header.isBlank() || body.isBlank()) {
                        continue;
                    }
                    assertThat(chunker.chunkUnderHeader(header, body)).as("window %d: %s / %s", window, header, body)
                            .isEqualTo(chunker.chunkUnderHeaderCounted(header, body));
                }
            }
        }
    }

    private static String randomPrintable(Random random, int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            // words of letters most of the time, so that WordPiece sees real words as well as punctuation runs
            s.append(random.nextInt(4) == 0 ? PRINTABLE.charAt(random.nextInt(PRINTABLE.length())) : (char) ('a' + random.nextInt(26)));
        }
        return s.toString();
    }
}
