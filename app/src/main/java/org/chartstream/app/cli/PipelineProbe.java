package org.chartstream.app.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;

/**
 * Asks whether a pipeline answers at an address before a command talks to it: Kafka's own clients would wait up to a
 * minute, retrying a dead address and logging connection errors. An address where nothing listens fails at once; one
 * that accepts connections gets {@link #TIMEOUT} to answer as a Kafka broker, because a broker that has just started,
 * or shares its cores with a busy pipeline, can take seconds to serve its first request (3 s was too short for
 * {@code RunCrashRestartIT}'s restarted run on a loaded machine).
 */
public final class PipelineProbe {
    /** How long a listening address has to answer as a Kafka broker. */
    public static final Duration TIMEOUT = Duration.ofSeconds(15);
    /** How long a TCP connection to one bootstrap address may take before it counts as nobody listening. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);

    private PipelineProbe() {
    }

    /**
     * Throws {@link NoPipelineException} naming {@code servers} (and {@code origin}, where the address came from) unless
     * a broker answers there; with {@code consumerGroup}, also unless that group has members (the topology that
     * would answer is running).
     */
    public static void require(String servers, Map<String, ?> security, String origin, String consumerGroup) {
        Properties p = new Properties();
        p.putAll(security);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "chartstream-probe");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT.toMillis() / 2));
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT.toMillis()));
        p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, "1000");
        p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, "2000");
        p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");
        if (!anyListens(servers)) {
            throw new NoPipelineException("no pipeline answers at " + servers + origin(origin) + ": no Kafka broker there responded (nothing"
                    + " accepts connections). Start one with `./chartstream run`, or pass --bootstrap host:port");
        }
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Admin admin = Admin.create(p);
        try {
            try {
                admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) TIMEOUT.toMillis())).nodes()
                        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new NoPipelineException("no pipeline answers at " + servers + origin(origin) + ": no Kafka broker there responded within "
                        + TIMEOUT.toSeconds() + " s (something accepts connections there). Start one with `./chartstream run`, or pass --bootstrap host:port");
            }
            if (consumerGroup != null) {
                requireMembers(admin, servers, origin, consumerGroup, Math.max(500, (deadline - System.nanoTime()) / 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            admin.close(Duration.ofMillis(500));
        }
    }

    private static void requireMembers(Admin admin, String servers, String origin, String group, long timeoutMs) throws InterruptedException {
        ConsumerGroupDescription d;
        try {
            d = admin.describeConsumerGroups(List.of(group), new DescribeConsumerGroupsOptions().timeoutMs((int) timeoutMs))
                    .describedGroups().get(group).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return; // the broker answers but cannot describe the group now: let the command try
        }
        if (d.members().isEmpty()) {
            throw new NoPipelineException("no pipeline answers at " + servers + origin(origin) + ": the broker is up, but nothing consumes"
                    + " its requests (consumer group " + group + " has no members). Start one with `./chartstream run`");
        }
    }

    /**
     * Whether a TCP connection to at least one of the comma-separated {@code host:port} addresses succeeds; an address
     * this cannot parse counts as listening, so that Kafka's own client judges it.
     */
    static boolean anyListens(String servers) {
        for (String server : servers.split(",")) {
            String address = server.trim().replaceFirst("^[A-Za-z_]+://", "");
            int colon = address.lastIndexOf(':');
            if (colon <= 0) {
                return true;
            }
            String host = address.substring(0, colon).replace("[", "").replace("]", "");
            int port;
            try {
                port = Integer.parseInt(address.substring(colon + 1));
            } catch (NumberFormatException e) {
                return true;
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), (int) CONNECT_TIMEOUT.toMillis());
                return true;
            } catch (IOException | IllegalArgumentException e) {
                // nothing listens at this one; try the next
            }
        }
        return false;
    }

    private static String origin(String origin) {
        return origin == null || origin.isEmpty() ? "" : " (" + origin + ")";
    }

    /** Nothing answers at the address a command was to use; reported like a configuration error (message, no trace). */
    public static final class NoPipelineException extends org.chartstream.runtime.config.ConfigException {
        public NoPipelineException(String message) {
            super(message);
        }
    }
}
