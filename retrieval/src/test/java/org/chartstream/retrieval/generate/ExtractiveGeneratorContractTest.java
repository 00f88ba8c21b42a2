package org.chartstream.retrieval.generate;

class ExtractiveGeneratorContractTest extends GeneratorContract {
    private final ExtractiveGenerator generator = new ExtractiveGenerator(600);

    @Override
    Generator generator() {
        return generator;
    }
}
