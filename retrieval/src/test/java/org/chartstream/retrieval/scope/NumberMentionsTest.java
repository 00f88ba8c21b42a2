package org.chartstream.retrieval.scope;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NumberMentionsTest {

    private static List<String> numbers(String question) {
        return NumberMentions.in(question).stream().map(NumberMentions.Mention::number).toList();
    }

    @Test
    void aNumberAfterTheWordsThatSayItIsAPatientsIsOne() {
        assertThat(numbers("What is the gender of patient 10014078?")).containsExactly("10014078");
        assertThat(numbers("pt. 10014078 meds")).containsExactly("10014078");
        assertThat(numbers("Which drugs did Subject 10014078 get?")).containsExactly("10014078");
        assertThat(numbers("subject_id 10014078")).containsExactly("10014078");
        assertThat(numbers("Labs of #10014078")).containsExactly("10014078");
        assertThat(numbers("Does patient no. MRN-000123 take lisinopril?")).containsExactly("MRN-000123");
        assertThat(numbers("patient number: 42, and MRN 000777")).containsExactly("42", "000777");
        assertThat(numbers("What about patient 10014078's labs?")).containsExactly("10014078");
    }

    @Test
    void theMentionSaysWhereTheNumberIs() {
        assertThat(NumberMentions.in("Labs of patient #10014078?"))
                .containsExactly(new NumberMentions.Mention("10014078", 17, 25));
        assertThat(NumberMentions.in("Labs of patient #10014078?").get(0).folded()).isEqualTo("10014078");
    }

    @Test
    void anAgeACodeOrAWordIsNoPatientNumber() {
        assertThat(numbers("Is the patient 65 or older?")).isEmpty();
        assertThat(numbers("Which patients 70 or older take 10 MG of lisinopril?")).isEmpty();
        assertThat(numbers("Does the patient no longer take lisinopril?")).isEmpty();
        assertThat(numbers("Who has ICD-10 code #I10 or E11.9?")).isEmpty();
        assertThat(numbers("Is there a ptosis or 10014078 anywhere?")).isEmpty();
    }
}
