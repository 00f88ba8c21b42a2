package org.chartstream.store.lucene;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * Lucene's {@link EnglishAnalyzer} chain (standard tokenizer, possessives, lower case, English stop words, Porter
 * stemming) with accents folded to ASCII before the stop words: "Elizabéth Róss" is indexed and searched as
 * "elizabeth ross", so a name or drug typed without its accent (or with one the record lacks) still matches. Used
 * for indexing and for every query, so both sides fold alike. Public for the offline evaluation tools
 * (eval/OfflineLists.java), which must analyse text exactly as the store does.
 */
public final class FoldingEnglishAnalyzer extends Analyzer {

  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    StandardTokenizer source = new StandardTokenizer();
    TokenStream result = new EnglishPossessiveFilter(source);
    result = new LowerCaseFilter(result);
    result = new ASCIIFoldingFilter(result);
    result = new StopFilter(result, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
    result = new PorterStemFilter(result);
    return new TokenStreamComponents(source, result);
  }

  @Override
  protected TokenStream normalize(String fieldName, TokenStream in) {
    return new ASCIIFoldingFilter(new LowerCaseFilter(in));
  }
}
