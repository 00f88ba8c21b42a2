package org.chartstream.store.documentdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TermPatternTest {

  private static boolean matches(String term, String text) {
    return Pattern.compile(TermPattern.of(term), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE).matcher(text).find();
  }

  @Test
  void aCodeMatchesWholeWithItsDot() {
    assertThat(matches("E11.9", "icd10 code: E11.9\ndescription")).isTrue();
    assertThat(matches("E11.9", "code E11.9.")).isTrue();
    assertThat(matches("E11.9", "code E11.91")).isFalse();
    assertThat(matches("E11", "code E11.9")).isFalse();
    assertThat(matches("E11.9", "code xE11.9")).isFalse();
  }

  @Test
  void lettersStandForTheirAccentedFormsAndCaseIsIgnored() {
    assertThat(matches("Elizabeth Ross", "patient: Elizabéth Róss (MRN-1)")).isTrue();
    assertThat(matches("élizabeth", "ELIZABETH")).isTrue();
    assertThat(matches("lisinopril", "LISINOPRIL 10 MG")).isTrue();
    assertThat(matches("lisinopril", "lisinoprils")).isFalse();
  }

  @Test
  void aPrefixPatternMatchesWhereverTheWholeTermDoesAndWhereOnlyItsStartStands() {
    String prefix = TermPattern.prefixOf("Elizabeth Ross", 11);
    assertThat(Pattern.compile(prefix, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE).matcher("Elizabéth Róss").find())
        .isTrue();
    assertThat(Pattern.compile(prefix, Pattern.CASE_INSENSITIVE).matcher("elizabeth rossi").find()).isTrue();
    assertThat(matches("Elizabeth Ross", "elizabeth rossi")).isFalse();
    assertThat(Pattern.compile(prefix, Pattern.CASE_INSENSITIVE).matcher("xelizabeth ross").find())
        .as("still at the start of a word").isFalse();
  }

  @Test
  void regexSyntaxInTheTermIsLiteralAndATermWithoutWordsHasNoPattern() {
    assertThat(matches("a+b", "a b")).isTrue();
    assertThat(matches("(x", "x")).isTrue();
    assertThat(TermPattern.of("?!.")).isNull();
  }
}
