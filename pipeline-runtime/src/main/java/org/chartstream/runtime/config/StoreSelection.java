package org.chartstream.runtime.config;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.chartstream.core.store.HybridStore;
import org.chartstream.store.documentdb.DocumentDbHybridStore;
import org.chartstream.store.documentdb.DocumentDbSettings;
import org.chartstream.store.lucene.LuceneHybridStore;

/**
 * Which hybrid store a process materialises the index log into and searches: {@code store.kind=lucene} (an index
 * directory of the process's own) or {@code documentdb} (a DocumentDB / MongoDB-compatible server at
 * {@code store.documentdb.uri}, shared by the processes that name it; TLS per {@code documentdb.tls*}).
 */
public final class StoreSelection {
    public static final List<String> KINDS = List.of("lucene", "documentdb");

    private StoreSelection() {
    }

    /** Opens the configured store; {@code luceneDir} is where a Lucene index lives, {@code dimension} the model's. */
    public static HybridStore open(ChartstreamConfig config, Path luceneDir, int dimension) {
        return switch (config.string("store.kind")) {
            case "documentdb" -> DocumentDbHybridStore.open(documentDbSettings(config, dimension));
            default -> LuceneHybridStore.open(luceneDir);
        };
    }

    /** The DocumentDB adapter's settings from {@code store.documentdb.*} and {@code documentdb.tls*}. */
    public static DocumentDbSettings documentDbSettings(ChartstreamConfig config, int dimension) {
        String uri = withCredentials(config.string("store.documentdb.uri"), config.string("store.documentdb.username"),
                config.string("store.documentdb.password"));
        return DocumentDbSettings.defaults(uri, config.string("store.documentdb.database"), dimension)
                .withTls(TransportSecurity.documentDbTls(config));
    }

    /**
     * The connection string with {@code username:password@} put in front of the host list (both URL-encoded), so
     * the password can live in its own (masked) key; unchanged without a username.
     */
    static String withCredentials(String uri, String username, String password) {
        if (username.isEmpty()) {
            return uri;
        }
        int hosts = uri.indexOf("://") + 3;
        return uri.substring(0, hosts) + URLEncoder.encode(username, StandardCharsets.UTF_8) + ":"
                + URLEncoder.encode(password, StandardCharsets.UTF_8) + "@" + uri.substring(hosts);
    }

    static void validate(ChartstreamConfig config) {
        String kind = config.string("store.kind");
        if (!KINDS.contains(kind)) {
            throw config.invalid("store.kind", "must be one of " + String.join(", ", KINDS));
        }
        if (!kind.equals("documentdb")) {
            return;
        }
        String uri = config.string("store.documentdb.uri");
        if (!uri.startsWith("mongodb://") && !uri.startsWith("mongodb+srv://")) {
            throw config.invalid("store.documentdb.uri", "must be a mongodb:// or mongodb+srv:// connection string with store.kind=documentdb");
        }
        String authority = uri.substring(uri.indexOf("://") + 3).split("[/?]", 2)[0];
        if (authority.isEmpty()) {
            throw config.invalid("store.documentdb.uri", "names no host");
        }
        if (authority.contains("@") && !config.string("store.documentdb.username").isEmpty()) {
            throw config.invalid("store.documentdb.username", "is set while store.documentdb.uri already holds credentials; keep them in one place");
        }
        if (!config.string("store.documentdb.username").isEmpty() && config.string("store.documentdb.password").isEmpty()) {
            throw config.invalid("store.documentdb.password", "must be set with store.documentdb.username");
        }
        if (!config.string("store.documentdb.database").matches("[A-Za-z0-9_-]{1,63}")) {
            throw config.invalid("store.documentdb.database", "must be 1-63 letters, digits, '_' or '-'");
        }
    }
}
