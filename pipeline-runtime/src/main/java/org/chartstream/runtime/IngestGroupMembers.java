package org.chartstream.runtime;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;

/** Whether a Kafka Streams group has members other than one client's own stream threads (other instances). */
final class IngestGroupMembers implements AutoCloseable {
    private final Admin admin;
    private final String groupId;

    IngestGroupMembers(String bootstrapServers, Map<String, String> security, String groupId) {
        Properties p = new Properties();
        p.putAll(security);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        this.admin = Admin.create(p);
        this.groupId = groupId;
    }

    /**
     * True when the group has a member that is none of {@code own}'s stream threads' consumers; also true when the
     * group cannot be described (the caller then waits its settle period, the cautious side).
     */
    boolean othersThan(KafkaStreams own) {
        Set<String> ownConsumers = own.metadataForLocalThreads().stream().map(ThreadMetadata::consumerClientId).collect(Collectors.toSet());
        try {
            List<MemberDescription> members = List.copyOf(admin.describeConsumerGroups(List.of(groupId)).all()
                    .get(5, TimeUnit.SECONDS).get(groupId).members());
            return othersAmong(members.stream().map(MemberDescription::clientId).toList(), ownConsumers);
        } catch (ExecutionException | TimeoutException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    static boolean othersAmong(List<String> memberClientIds, Set<String> ownConsumerClientIds) {
        return memberClientIds.stream().anyMatch(id -> !ownConsumerClientIds.contains(id));
    }

    @Override
    public void close() {
        admin.close();
    }
}
