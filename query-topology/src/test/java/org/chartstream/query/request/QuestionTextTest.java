package org.chartstream.query.request;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuestionTextTest {

    @Test
    void invisibleAndControlCharactersLeaveNothingToSearch() {
        assertThat(QuestionText.normalise("\u0000\u0000\u0000")).isEmpty();
        assertThat(QuestionText.normalise("\u200B\u200C\u200D\u2060\uFEFF\u00AD\u200E\u202E")).isEmpty();
        assertThat(QuestionText.normalise(" \t\r\n\u00A0\u2003\u3000\u2028")).isEmpty();
        assertThat(QuestionText.normalise("\u3164\u115F\uFE0F\u034F")).as("Hangul fillers, a variation selector, CGJ").isEmpty();
    }

    @Test
    void visibleTextIsKeptWithOneSpaceWhereWhiteSpaceOrControlsWere() {
        assertThat(QuestionText.normalise("  which\u0000patients\t\ttake\u200B met\u00ADformin ?\n")).isEqualTo("which patients take metformin ?");
        assertThat(QuestionText.normalise("E11.9")).isEqualTo("E11.9");
        assertThat(QuestionText.normalise("Zoe\u0308")).as("NFC").isEqualTo("Zoë");
        assertThat(QuestionText.normalise("\uD83E\uDE7A fever")).isEqualTo("\uD83E\uDE7A fever");
    }

    @Test
    void lengthCountsCodePoints() {
        assertThat(QuestionText.length("\uD83E\uDE7A\uD83E\uDE7A")).isEqualTo(2);
        assertThat(QuestionText.length("abc")).isEqualTo(3);
    }
}
