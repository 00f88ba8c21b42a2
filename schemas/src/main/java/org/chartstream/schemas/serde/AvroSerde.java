package org.chartstream.schemas.serde;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serde for a generated Avro class using single-object encoding ({@code C3 01}, 8-byte schema fingerprint,
 * body). Data written with any schema version known to {@link KnownSchemas} is resolved to the current class.
 */
public final class AvroSerde<T extends SpecificRecord> implements Serde<T>, Serializer<T>, Deserializer<T> {
    private final Class<T> type;
    private final BinaryMessageEncoder<T> encoder;
    private final BinaryMessageDecoder<T> decoder;

    public AvroSerde(Class<T> type) {
        this.type = type;
        SpecificData data = SpecificData.getForClass(type);
        Schema schema = data.getSchema(type);
        this.encoder = new BinaryMessageEncoder<>(data, schema);
        this.decoder = new BinaryMessageDecoder<>(data, schema, KnownSchemas.store());
    }

    public static <T extends SpecificRecord> AvroSerde<T> of(Class<T> type) {
        return new AvroSerde<>(type);
    }

    @Override
    public byte[] serialize(String topic, T value) {
        if (value == null) {
            return null;
        }
        try {
            ByteBuffer buf = encoder.encode(value);
            byte[] out = new byte[buf.remaining()];
            buf.get(out);
            return out;
        } catch (IOException | AvroRuntimeException e) {
            throw new SerializationException("cannot encode " + type.getSimpleName() + " for topic " + topic + ": " + e.getMessage(), e);
        }
    }

    @Override
    public T deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return decoder.decode(bytes);
        } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException e) {
            throw new SerializationException("bytes on topic " + topic + " are not a " + type.getSimpleName()
                    + " (Avro single-object encoding): " + e.getMessage(), e);
        }
    }

    /** Decodes without throwing: null when the bytes are not a readable {@code T}. */
    public T tryDeserialize(byte[] bytes) {
        try {
            return deserialize("", bytes);
        } catch (SerializationException e) {
            return null;
        }
    }

    public byte[] serialize(T value) {
        return serialize("", value);
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }

    @Override
    public void configure(java.util.Map<String, ?> configs, boolean isKey) {
    }

    @Override
    public void close() {
    }
}
