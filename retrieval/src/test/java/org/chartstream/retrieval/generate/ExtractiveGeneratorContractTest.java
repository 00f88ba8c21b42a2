package org.chartstream.retrieval.generate;

class ExtractiveGeneratorContractTest extends GeneratorContract {
    private final ExtractiveGenerator generator = new ExtractiveGenerator(ExtractiveGeneratorTest.WORD_OVERLAP, 600);

    @Override
    Generator generator() {
        return generator;
    }
}
