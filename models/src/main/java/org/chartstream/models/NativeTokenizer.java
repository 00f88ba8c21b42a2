package org.chartstream.models;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * A model's native HuggingFace tokenizer (DJL), as the embedding and the cross-encoder tokenizers hold it: used by
 * concurrent calls (the Rust tokenizer is immutable once built), freed once by {@link #close()}, which waits for
 * running calls and makes later calls fail.
 */
public final class NativeTokenizer implements AutoCloseable {

    private final HuggingFaceTokenizer hf;
    private final String name;
    private final long padId;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private boolean closed;

    private NativeTokenizer(HuggingFaceTokenizer hf, String name) {
        this.hf = hf;
        this.name = name;
        this.padId = probePadId(hf);
    }

    /**
     * Reads a {@code tokenizer.json} with DJL kept offline; {@code options} override the file's own settings. The
     * caller closes the stream and the returned tokenizer.
     *
     * @param name how the closed-tokenizer message names it, e.g. {@code tokenizer of model 'x'}
     */
    public static NativeTokenizer load(InputStream tokenizerJson, Map<String, String> options, String name)
            throws IOException {
        DjlOffline.ensure();
        return new NativeTokenizer(HuggingFaceTokenizer.newInstance(tokenizerJson, options), name);
    }

    /** Id of the model's pad token ({@code [PAD]} or {@code <pad>}), else 0. */
    public long padId() {
        return padId;
    }

    /** Applies {@code call} to the native tokenizer unless it is closed; {@link #close()} waits for it. */
    public <T> T use(Function<HuggingFaceTokenizer, T> call) {
        lock.readLock().lock();
        try {
            if (closed) {
                throw new IllegalStateException(name + " is closed");
            }
            return call.apply(hf);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Frees the native tokenizer; waits for running calls. Idempotent. */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (!closed) {
                closed = true;
                hf.close();
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private static long probePadId(HuggingFaceTokenizer hf) {
        for (String candidate : new String[] {"[PAD]", "<pad>"}) {
            long[] ids = hf.encode(candidate, false, false).getIds();
            if (ids.length == 1) {
                return ids[0];
            }
        }
        return 0;
    }
}
