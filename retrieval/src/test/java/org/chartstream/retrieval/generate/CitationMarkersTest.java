package org.chartstream.retrieval.generate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CitationMarkersTest {

    @Test
    void readsEveryCitationFormInOrderOfFirstUse() {
        CitationMarkers.Report r = CitationMarkers.check("Lisinopril [3]. Hypertension [1, 2]; BP [2;4] and [5-6] or [1][3].", 6);

        assertThat(r.cited()).containsExactly(3, 1, 2, 4, 5, 6);
        assertThat(r.flagged()).isFalse();
        assertThat(r.uncited()).isFalse();
    }

    @Test
    void flagsCitationsOfPassagesThatDoNotExist() {
        CitationMarkers.Report r = CitationMarkers.check("Lisinopril [1] and aspirin [7], also [0] and [7] again, [5-8].", 6);

        assertThat(r.cited()).containsExactly(1, 5, 6);
        assertThat(r.outOfRange()).containsExactly(7, 0, 8);
        assertThat(r.flagged()).isTrue();
    }

    @Test
    void bracketsThatAreNotCitationsAreIgnored() {
        CitationMarkers.Report r = CitationMarkers.check("He said [sic] the dose was [10 mg] per day [a].", 6);

        assertThat(r.uncited()).isTrue();
        assertThat(r.flagged()).isFalse();
    }

    @Test
    void hugeNumbersAndWideRangesAreOutOfRangeWithoutExpanding() {
        CitationMarkers.Report r = CitationMarkers.check("[99999999999] [1-100000]", 6);

        assertThat(r.cited()).containsExactly(1);
        assertThat(r.outOfRange()).containsExactly(Integer.MAX_VALUE, 100000);
    }
}
