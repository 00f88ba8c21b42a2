package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.chartstream.bench.ScaleOutLoad;
import org.chartstream.embedded.ChildJvmClassPath;
import org.chartstream.embedded.EmbeddedKafkaBroker;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.Topics;
import org.junit.jupiter.api.Test;

/**
 * Two query instances ({@code chartstream run --role query}, each a JVM of its own with its own state directory and
 * Lucene replica, one pipeline worker each) share a 4-partition request topic with an ingest runtime on one embedded
 * broker. 24 clients post three conversations of four turns each at once (the later turns wait in flight for the
 * earlier ones), admission at 256 so that none is refused. One worker per instance and 72 conversations make requests
 * queue on a fast machine too: CI saw all requests answered before any on the victim was old enough to be in the
 * committed pending store (so no failover tested) with two workers and 18 conversations, and once with one worker
 * and 36. Once 30 % of the requests are answered and one instance's oldest request in flight was admitted two commit
 * intervals (100 ms each) and 300 ms before, it is killed with SIGKILL. Its partitions move to the survivor, which takes its pending requests
 * over from the changelogged pending store (a request admitted after the victim's last commit is read again from the
 * request topic instead; CI twice saw kills, by rules that looked only at how many were in flight, with only such
 * requests and nothing resumed from the store): no request is lost, none gets two final replies that differ, and
 * every conversation's turns are answered in order.
 */
class QueryScaleOutIT {
    private final Path work = Path.of("target", "it", "QueryScaleOutIT-" + System.currentTimeMillis()).toAbsolutePath();

    @Test
    void twoQueryInstancesShareTheRequestsAndTheSurvivorOfAKillAnswersEveryRequestOnceInOrder() throws Exception {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        ChartstreamConfig base = ChartstreamConfig.defaults().with("data.dir", work.toString()).with("ops.http.port", "0");
        ScaleOutLoad.Settings settings = new ScaleOutLoad.Settings(2, 4, 3, 24, 3, 4, 0.3, Duration.ofSeconds(120),
                Map.of("query.admission-limit", "256", "query.admission-min-limit", "256", "query.commit-interval-ms", "100",
                        "query.workers", "1"));
        ScaleOutLoad.Result result = ScaleOutLoad.run(base, settings, arguments -> ChildJvmClassPath.javaCommand(
                List.of("-Xmx1g", "-Dorg.slf4j.simpleLogger.log.org.chartstream.query=info"), Main.class.getName(),
                arguments.toArray(String[]::new)), work, line -> System.out.println("[QueryScaleOutIT] " + line));

        assertThat(result.killed()).isEqualTo(1);
        assertThat(result.inFlightAtKill()).as("requests in flight on the killed instance").isPositive();
        assertThat(result.replies().requests()).isEqualTo(settings.requests());
        assertThat(result.replies().lost()).as("lost requests").isZero();
        assertThat(result.replies().answered()).isEqualTo(settings.requests());
        assertThat(result.replies().conflictingDuplicates()).as("final replies that differ for one request").isZero();
        assertThat(result.replies().conversationsOutOfOrder()).as("conversations whose turns were answered out of order").isZero();
        assertThat(result.replies().firstFinalTypes().keySet()).as("pipeline outcomes only: nothing busy, failed or timed out")
                .isSubsetOf(ReplyType.ANSWER, ReplyType.REFUSED, ReplyType.CLARIFY);
        assertThat(result.resumedFromPending()).as("requests the survivor took over from the pending store").isPositive();
    }

    @Test
    void aQueryProcessRefusesARequestTopicWithAnotherPartitionCountThanItsOwn() throws Exception {
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker().start(work.resolve("refuse-kafka"))) {
            broker.createTopics(Map.of(Topics.REQUESTS, 4));
            ChartstreamConfig config = ChartstreamConfig.defaults().with("data.dir", work.toString())
                    .with("kafka.bootstrap", broker.bootstrapServers()).with("query.partitions", "2");
            assertThatThrownBy(() -> PipelineRuntime.start(config, work.resolve("refused"), c -> Map.of(), line -> { },
                    PipelineRuntime.Role.QUERY)).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("query.partitions").hasMessageContaining("exists with 4 partition(s)");
        }
    }
}
