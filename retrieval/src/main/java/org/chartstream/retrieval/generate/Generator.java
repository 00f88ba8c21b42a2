package org.chartstream.retrieval.generate;

import java.util.List;
import java.util.function.Consumer;
import org.chartstream.retrieval.context.ContextPassage;

/** Writes the answer to a question from numbered passages, citing them. */
public interface Generator {

    /** The audit name: the generation model, or that the answer is extractive. */
    String name();

    /**
     * @param question the question to answer (the standalone rewrite)
     * @param passages the numbered context; the only citable evidence
     * @param onToken  receives answer pieces as they are generated (not called by a generator that does not stream)
     */
    GenerationResult generate(String question, List<ContextPassage> passages, Consumer<String> onToken);
}
