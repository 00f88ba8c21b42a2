package org.chartstream.models;

/** A model or tokenizer file named by a {@link ModelDescriptor} is not on the classpath or not on disk. */
public final class ModelResourceNotFoundException extends IllegalStateException {
    private final String resource;

    public ModelResourceNotFoundException(String resource, String message) {
        super(message);
        this.resource = resource;
    }

    /** The resource string as written in the descriptor. */
    public String resource() {
        return resource;
    }
}
