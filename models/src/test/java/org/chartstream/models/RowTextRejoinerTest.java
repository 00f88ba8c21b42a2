package org.chartstream.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.chartstream.core.store.RowTextRejoiner;
import org.junit.jupiter.api.Test;

class RowTextRejoinerTest {
    private static final String HEADER = "record: notes\npatient: Ana Ruiz (MRN-000001)";

    @Test
    void theHeaderAppearsOnceAndTheOverlapOnce() {
        List<String> chunks = List.of(
                HEADER + "\nnote: chest pain on exertion since March, relieved by rest",
                HEADER + "\nsince March, relieved by rest; ECG showed no acute changes",
                HEADER + "\nECG showed no acute changes. Plan: stress test.");

        assertThat(RowTextRejoiner.rejoin(chunks)).isEqualTo(HEADER
                + "\nnote: chest pain on exertion since March, relieved by rest; ECG showed no acute changes. Plan: stress test.");
    }

    @Test
    void chunksWithoutOverlapAreJoinedByALineBreak() {
        List<String> chunks = List.of(HEADER + "\nfirst field: one", HEADER + "\nsecond field: two");

        assertThat(RowTextRejoiner.rejoin(chunks)).isEqualTo(HEADER + "\nfirst field: one\nsecond field: two");
    }

    @Test
    void aShortCoincidentalMatchIsNotTakenForOverlap() {
        List<String> chunks = List.of("dose: 10 mg", "mg twice daily");

        assertThat(RowTextRejoiner.rejoin(chunks)).isEqualTo("dose: 10 mg\nmg twice daily");
    }

    @Test
    void oneChunkOrNoneIsReturnedAsIs() {
        assertThat(RowTextRejoiner.rejoin(List.of(HEADER + "\nbody"))).isEqualTo(HEADER + "\nbody");
        assertThat(RowTextRejoiner.rejoin(List.of())).isEmpty();
    }

    @Test
    void rejoinsTheIngestChunkersRealOutputIntoTheOriginalText() {
        StringBuilder body = new StringBuilder("note: ");
        for (int i = 0; i < 60; i++) {
            body.append("Visit ").append(i).append(" reviewed blood pressure readings and adjusted the lisinopril dose. ");
        }
        String text = body.toString().strip();
        try (ModelTokenizer tokenizer = ModelTokenizer.load(ModelDescriptor.ALL_MINILM_L6_V2)) {
            List<String> chunks = new TokenChunker(tokenizer, 120, 32).chunkUnderHeader(HEADER, text);
            assertThat(chunks).hasSizeGreaterThan(3);

            assertThat(RowTextRejoiner.rejoin(chunks)).isEqualTo(HEADER + "\n" + text);
        }
    }

    @Test
    void rejoinsChunksThatCarryTheRowsOpeningInTheirHeader() {
        String opening = "note: Chief complaint is chest pain.";
        StringBuilder body = new StringBuilder(opening);
        for (int i = 0; i < 60; i++) {
            body.append(" Visit ").append(i).append(" reviewed blood pressure readings and adjusted the lisinopril dose.");
        }
        try (ModelTokenizer tokenizer = ModelTokenizer.load(ModelDescriptor.ALL_MINILM_L6_V2)) {
            List<String> chunks = new TokenChunker(tokenizer, 120, 32, 24).chunkUnderHeader(HEADER, body.toString());
            String lead = chunks.get(0).substring(HEADER.length() + 1, chunks.get(0).indexOf('\n', HEADER.length() + 1));
            assertThat(lead).startsWith(opening);
            assertThat(chunks).hasSizeGreaterThan(3).allMatch(c -> c.startsWith(HEADER + "\n" + lead + "\n"));

            assertThat(RowTextRejoiner.rejoin(chunks)).isEqualTo(HEADER + "\n" + lead + "\n" + body.substring(lead.length()).strip());
        }
    }
}
