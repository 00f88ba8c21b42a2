package org.chartstream.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The chunker over the real all-MiniLM-L6-v2 tokenizer (no ONNX session needed). */
class TokenChunkerTest {

    private static ModelTokenizer tokenizer;

    @BeforeAll
    static void load() {
        tokenizer = ModelTokenizer.load(ModelDescriptor.ALL_MINILM_L6_V2);
    }

    @AfterAll
    static void close() {
        tokenizer.close();
    }

    @Test
    void countsWordPiecesWithoutSpecialTokens() {
        assertThat(tokenizer.countTokens("")).isZero();
        assertThat(tokenizer.countTokens("hypertension")).isEqualTo(2); // hyper ##tension
        assertThat(tokenizer.countTokens("BP 140/90.")).isEqualTo(5);
        String longText = TestTexts.passage(new Random(1), 2000);
        assertThat(tokenizer.countTokens(longText)).isGreaterThan(2000); // never truncated
    }

    @Test
    void defaultWindowFitsTheModel() {
        TokenChunker c = TokenChunker.forModel(tokenizer, ModelDescriptor.ALL_MINILM_L6_V2);
        assertThat(c.windowTokens()).isEqualTo(254);
        assertThat(c.overlapTokens()).isEqualTo(32);
    }

    @Test
    void shortTextIsOneTrimmedChunk() {
        TokenChunker c = new TokenChunker(tokenizer, 254, 32);
        assertThat(c.chunk("  \n Patient reports mild headache.\n ")).containsExactly("Patient reports mild headache.");
        assertThat(c.chunks("  abc ")).singleElement().satisfies(ch -> {
            assertThat(ch.start()).isEqualTo(2);
            assertThat(ch.end()).isEqualTo(5);
            assertThat(ch.tokenCount()).isEqualTo(1);
        });
        assertThat(c.chunk(" \n\t ")).isEmpty();
        assertThat(c.chunk("")).isEmpty();
    }

    @Test
    void longTextChunksFitOverlapAndCoverEverything() {
        String text = TestTexts.passage(new Random(42), 1500);
        for (int[] wo : new int[][] {{254, 32}, {100, 20}, {40, 8}, {16, 0}}) {
            checkChunks(text, new TokenChunker(tokenizer, wo[0], wo[1]));
        }
    }

    @Test
    void textWithoutPunctuationOrNewlinesStillSplitsBetweenWords() {
        String text = TestTexts.passage(new Random(3), 800).replaceAll("[.,\\n]", " ");
        TokenChunker c = new TokenChunker(tokenizer, 64, 16);
        List<TokenChunker.Chunk> chunks = checkChunks(text, c);
        for (TokenChunker.Chunk ch : chunks) {
            // starts and ends on whole words
            assertThat(ch.start() == 0 || Character.isWhitespace(text.charAt(ch.start() - 1))).isTrue();
            assertThat(ch.end() == text.length() || Character.isWhitespace(text.charAt(ch.end()))).isTrue();
        }
    }

    @Test
    void prefersSentenceEnds() {
        StringBuilder sb = new StringBuilder();
        Random r = new Random(9);
        for (int i = 0; i < 60; i++) {
            sb.append("Sentence ").append(i).append(" notes ").append(TestTexts.passage(r, 3 + r.nextInt(3))
                    .replace(".", "").replace("\n", " ")).append(". ");
        }
        String text = sb.toString().trim();
        TokenChunker c = new TokenChunker(tokenizer, 80, 10);
        List<String> chunks = checkChunks(text, c).stream().map(TokenChunker.Chunk::text).toList();
        for (String chunk : chunks.subList(0, chunks.size() - 1)) {
            assertThat(chunk).endsWith(".");
        }
    }

    @Test
    void prefersLineBreaks() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 80; i++) {
            sb.append("Vitals row ").append(i).append(" heart rate 72 blood pressure 120 over 80\n");
        }
        List<TokenChunker.Chunk> chunks = checkChunks(sb.toString(), new TokenChunker(tokenizer, 60, 12));
        for (TokenChunker.Chunk ch : chunks.subList(0, chunks.size() - 1)) {
            assertThat(sb.charAt(ch.end())).isEqualTo('\n');
        }
    }

    @Test
    void offsetsAreJavaStringIndicesEvenWithEmojiAndAccents() {
        String text = ("Café 😀 naïve résumé 😀😀 patient is stable. 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 line\n").repeat(40);
        List<TokenChunker.Chunk> chunks = checkChunks(text, new TokenChunker(tokenizer, 50, 10));
        assertThat(chunks.get(0).text()).startsWith("Café 😀 naïve");
    }

    @Test
    void rejectsBadWindows() {
        assertThatThrownBy(() -> new TokenChunker(tokenizer, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenChunker(tokenizer, 10, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overlapTokens");
        assertThatThrownBy(() -> new TokenChunker(tokenizer, 10, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** The properties every chunking must have; returns the chunks. */
    private static List<TokenChunker.Chunk> checkChunks(String text, TokenChunker c) {
        List<TokenChunker.Chunk> chunks = c.chunks(text);
        assertThat(chunks).isNotEmpty();
        assertThat(c.chunk(text)).isEqualTo(chunks.stream().map(TokenChunker.Chunk::text).toList());
        if (c.countTokens(text) > c.windowTokens()) {
            assertThat(chunks).hasSizeGreaterThan(1);
        }
        boolean[] covered = new boolean[text.length()];
        for (int i = 0; i < chunks.size(); i++) {
            TokenChunker.Chunk ch = chunks.get(i);
            assertThat(ch.text()).isEqualTo(text.substring(ch.start(), ch.end())).isNotBlank();
            assertThat(c.countTokens(ch.text())).as("chunk %d", i)
                    .isEqualTo(ch.tokenCount()).isLessThanOrEqualTo(c.windowTokens());
            for (int k = ch.start(); k < ch.end(); k++) {
                covered[k] = true;
            }
            if (i > 0) {
                TokenChunker.Chunk prev = chunks.get(i - 1);
                assertThat(ch.start()).as("chunk %d moves forward", i).isGreaterThan(prev.start());
                assertThat(ch.end()).isGreaterThan(prev.end());
                if (c.overlapTokens() > 0) {
                    assertThat(ch.start()).as("chunk %d overlaps the previous one", i).isLessThan(prev.end());
                    String shared = text.substring(ch.start(), prev.end());
                    assertThat(c.countTokens(shared)).isPositive();
                }
            }
        }
        for (int k = 0; k < text.length(); k++) {
            if (!Character.isWhitespace(text.charAt(k))) {
                assertThat(covered[k]).as("character %d '%s' covered", k, text.charAt(k)).isTrue();
            }
        }
        for (String word : text.split("\\s+")) {
            if (!word.isEmpty()) {
                assertThat(chunks).as("word %s", word).anyMatch(ch -> ch.text().contains(word));
            }
        }
        return chunks;
    }

    @Test
    void everyChunkUnderAHeaderStartsWithItAndStillFitsTheWindow() {
        TokenChunker small = new TokenChunker(tokenizer, 40, 8);
        String header = "record: clinical notes\npatient: Martha Collins (MRN-000001)";
        String body = String.join(" ", java.util.Collections.nCopies(30, "The patient reports intermittent chest pain after exercise."));

        List<String> chunks = small.chunkUnderHeader(header, body);

        assertThat(chunks).hasSizeGreaterThan(3);
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c).startsWith(header + "\n");
            assertThat(small.countTokens(c)).isLessThanOrEqualTo(40);
        });
        assertThat(small.chunkUnderHeader(header, "  ")).containsExactly(header);
    }

    @Test
    void aLongBodyGivesItsOpeningSentenceToEveryChunkAndTheChunksStillHoldTheTextOnce() {
        TokenChunker withLead = new TokenChunker(tokenizer, 60, 8, 16);
        String header = "record: beir docs";
        String opening = "Question: What are the symptoms of Noonan syndrome?";
        String body = opening + " " + String.join(" ", java.util.Collections.nCopies(30, "Short stature is seen in most patients."));

        List<String> chunks = withLead.chunkUnderHeader(header, body);

        assertThat(chunks).hasSizeGreaterThan(3);
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c).startsWith(header + "\n" + opening + "\n");
            assertThat(withLead.countTokens(c)).isLessThanOrEqualTo(60);
        });
        long openings = chunks.stream().mapToLong(c -> c.split("Noonan", -1).length - 1).sum();
        assertThat(openings).as("the opening is in every chunk's header, never again in a body").isEqualTo(chunks.size());
    }

    @Test
    void aBodyThatFitsOneWindowKeepsItsOpeningInPlaceAndALeadNeedsASentenceOrLineEnd() {
        TokenChunker withLead = new TokenChunker(tokenizer, 60, 8, 16);
        String header = "record: beir docs";

        assertThat(withLead.chunkUnderHeader(header, "Question: What is Noonan syndrome? A genetic disorder."))
                .containsExactly(header + "\nQuestion: What is Noonan syndrome? A genetic disorder.");

        String noSentenceEnd = String.join(" ", java.util.Collections.nCopies(80, "stature"));
        assertThat(withLead.chunkUnderHeader(header, noSentenceEnd))
                .containsExactlyElementsOf(new TokenChunker(tokenizer, 60, 8).chunkUnderHeader(header, noSentenceEnd));
        assertThatThrownBy(() -> new TokenChunker(tokenizer, 60, 8, -1)).hasMessageContaining("leadTokens");
    }
}
