package org.chartstream.connectors;

import io.debezium.connector.postgresql.PostgresConnector;
import io.debezium.connector.postgresql.PostgresConnectorTask;
import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Debezium's PostgreSQL connector whose task sleeps while no change is queued instead of spinning in Debezium's poll
 * ({@link IdleQueueWait}); everything else is Debezium's. The embedded engine runs this class for
 * {@link SourceKind#POSTGRES}.
 */
public class IdleWaitingPostgresConnector extends PostgresConnector {

    @Override
    public Class<? extends org.apache.kafka.connect.connector.Task> taskClass() {
        return Task.class;
    }

    /** {@link PostgresConnectorTask} with {@link IdleQueueWait} in front of its poll. */
    public static class Task extends PostgresConnectorTask {
        private final IdleQueueWait idleWait = IdleQueueWait.forTask(PostgresConnectorTask.class);

        @Override
        public List<SourceRecord> doPoll() throws InterruptedException {
            return idleWait.poll(this, super::doPoll);
        }
    }
}
