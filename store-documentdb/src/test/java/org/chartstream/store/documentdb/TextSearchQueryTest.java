package org.chartstream.store.documentdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The {@code $text} search string the DocumentDB store sends for a question. */
class TextSearchQueryTest {

  @Test
  void textSearchStringHasNoOperators() {
    assertThat(TextSearchQuery.of("migraine with aura")).isEqualTo("migraine with aura");
    assertThat(TextSearchQuery.of("-migraine --aura")).isEqualTo("migraine aura");
    assertThat(TextSearchQuery.of("\"breast carcinoma\" biopsy")).isEqualTo("biopsy \"breast carcinoma\"");
    assertThat(TextSearchQuery.of("\u201Cbreast carcinoma\u201D")).isEqualTo("\"breast carcinoma\"");
    assertThat(TextSearchQuery.of("\"(foo AND")).isEqualTo("(foo AND");
    assertThat(TextSearchQuery.of("C50.9")).isEqualTo("C50.9");
    assertThat(TextSearchQuery.of("\"\" -- ? !")).isNull();
    assertThat(TextSearchQuery.of("   ")).isNull();
    assertThat(TextSearchQuery.of(null)).isNull();
    String many = TextSearchQuery.of("t".repeat(3) + " " + String.join(" ",
        IntStream.range(0, 3_000).mapToObj(i -> "w" + i).toList()));
    assertThat(many.split(" ")).hasSize(TextSearchQuery.MAX_TEXT_TERMS);
  }

  @Test
  void hyphenatedWordsAreSplitSoTheEngineKeepsTheTermsOred() {
    assertThat(TextSearchQuery.of("follow-up metformin")).isEqualTo("follow up metformin");
    assertThat(TextSearchQuery.of("x-ray glucose")).isEqualTo("ray glucose");
    assertThat(TextSearchQuery.of("E11.9 follow-up")).isEqualTo("E11.9 follow up");
    assertThat(TextSearchQuery.of("ex--smoker follow-up-visit")).isEqualTo("ex smoker follow up visit");
    assertThat(TextSearchQuery.of("\"x-ray of the chest\" follow-up"))
        .as("inside quotes the engine parses a hyphenated word as it does in the text")
        .isEqualTo("follow up \"x-ray of the chest\"");
  }

  @Test
  void hyphenSplittingNeverMakesOneLetterTermsAndKeepsTheSignOfANumber() {
    assertThat(TextSearchQuery.of("x-ray")).isEqualTo("ray");
    assertThat(TextSearchQuery.of("T-cell count")).isEqualTo("cell count");
    assertThat(TextSearchQuery.of("a-b")).as("nothing searchable is left").isNull();
    assertThat(TextSearchQuery.of("x")).as("a word the user typed alone stays").isEqualTo("x");
    assertThat(TextSearchQuery.of("COVID-19 vaccine")).isEqualTo("COVID \"-19\" vaccine");
    assertThat(TextSearchQuery.of("covid-19, ward")).isEqualTo("covid \"-19\" ward");
    assertThat(TextSearchQuery.of("type-2.5 diabetes")).isEqualTo("type \"-2.5\" diabetes");
    assertThat(TextSearchQuery.of("2-3 times")).as("one digit before the hyphen is dropped")
        .isEqualTo("\"-3\" times");
    assertThat(TextSearchQuery.of("-19 fever")).as("a leading minus is the engine's NOT, dropped")
        .isEqualTo("19 fever");
  }

  @Test
  void operatorWordsAndNegationsReachTheEngineAsPlainTerms() {
    assertThat(TextSearchQuery.of("heart or lung")).isEqualTo("heart lung");
    assertThat(TextSearchQuery.of("heart OR lung Or, (or) liver")).isEqualTo("heart lung liver");
    assertThat(TextSearchQuery.of("orange order")).isEqualTo("orange order");
    assertThat(TextSearchQuery.of("-fever cough")).isEqualTo("fever cough");
    assertThat(TextSearchQuery.of("cough (-fever !-rash")).isEqualTo("cough fever rash");
    assertThat(TextSearchQuery.of("\"chest pain\" or -fever")).isEqualTo("fever \"chest pain\"");
    assertThat(TextSearchQuery.of("\"-left side\"")).isEqualTo("\"left side\"");
  }

  @Test
  void onlyMultiWordQuotedPhrasesStayPhrases() {
    assertThat(TextSearchQuery.of("\"E11.9\" glucose")).isEqualTo("E11.9 glucose");
    assertThat(TextSearchQuery.of("\"E11.9\"")).isEqualTo("E11.9");
    assertThat(TextSearchQuery.of("\"very very hot\"")).isEqualTo("\"very very hot\"");
    assertThat(TextSearchQuery.of("\"breast carcinoma\" E11.9")).isEqualTo("E11.9 \"breast carcinoma\"");
  }

  @Test
  void hostileTextIsLiteralToTheEngine() {
    assertThat(TextSearchQuery.of("$where")).isEqualTo("$where");
    assertThat(TextSearchQuery.of("{\"$gt\": \"\"}")).isEqualTo("$gt");
    assertThat(TextSearchQuery.of("\"unbalanced \"quotes\" here")).isEqualTo("unbalanced quotes here");
    assertThat(TextSearchQuery.of("C:\\temp\\x back\\slash")).isEqualTo("C:\\temp\\x back\\slash");
    assertThat(TextSearchQuery.of("<-> & | ! :*")).isNull();
    assertThat(TextSearchQuery.of("fever <-> cough & rash:*")).isEqualTo("fever cough rash:*");
  }
}
