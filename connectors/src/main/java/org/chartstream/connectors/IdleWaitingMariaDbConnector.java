package org.chartstream.connectors;

import io.debezium.connector.mariadb.MariaDbConnector;
import io.debezium.connector.mariadb.MariaDbConnectorTask;
import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Debezium's MariaDB connector whose task sleeps while no change is queued instead of spinning in Debezium's poll
 * ({@link IdleQueueWait}); everything else is Debezium's. The embedded engine runs this class for
 * {@link SourceKind#MARIADB}.
 */
public class IdleWaitingMariaDbConnector extends MariaDbConnector {

    @Override
    public Class<? extends org.apache.kafka.connect.connector.Task> taskClass() {
        return Task.class;
    }

    /** {@link MariaDbConnectorTask} with {@link IdleQueueWait} in front of its poll. */
    public static class Task extends MariaDbConnectorTask {
        private final IdleQueueWait idleWait = IdleQueueWait.forTask(MariaDbConnectorTask.class);

        @Override
        protected List<SourceRecord> doPoll() throws InterruptedException {
            return idleWait.poll(this, super::doPoll);
        }
    }
}
