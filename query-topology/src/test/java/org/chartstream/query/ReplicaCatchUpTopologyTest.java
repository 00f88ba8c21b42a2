package org.chartstream.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.chartstream.query.QueryTopologyFixture.bytes;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.query.catchup.IndexCatchUp;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task of the query topology whose store replica is still behind the index log: it admits and records requests but
 * runs none until the replica has caught up; a task that closes (its partition moves to another instance) frees the
 * admission slots of the requests it did not finish.
 */
class ReplicaCatchUpTopologyTest {
    private static final String REPLY_TOPIC = "chartstream.replies";

    @TempDir
    static Path dir;
    private static QueryTopologyFixture fixture;
    private final AtomicBoolean caughtUp = new AtomicBoolean();
    private final AtomicInteger catchUpsTaken = new AtomicInteger();

    @BeforeAll
    static void index() {
        fixture = QueryTopologyFixture.open(dir);
        fixture.index(List.of(fixture.chunk("conditions", "c1", "record: conditions\npatient: Andrew Perez (MRN-2)\n"
                + "icd10 code: E03.9\ndescription: Hypothyroidism").patient("MRN-2").build()));
    }

    @AfterAll
    static void close() {
        fixture.close();
    }

    @BeforeEach
    void start() {
        IndexCatchUp catchUp = () -> {
            catchUpsTaken.incrementAndGet();
            return caughtUp::get;
        };
        fixture.start("catch-up-test", null, (serving, sender) -> QueryTopology.build(serving.withCatchUp(catchUp),
                streamsConfig -> topic -> true, sender));
        fixture.drain();
    }

    private static void post(String id) {
        QueryRequest r = QueryRequest.newBuilder().setRequestId(id).setConversationId("c-" + id).setUserId("clinician-1")
                .setQuestion("Which patient has hypothyroidism?").setTopK(3).build();
        fixture.produce(r.getConversationId(), bytes(r), REPLY_TOPIC, null);
    }

    /** Moves the wall clock over many delivery passes, giving the workers time to finish anything they were handed. */
    private static void passes() throws InterruptedException {
        for (int i = 0; i < 20; i++) {
            fixture.advance();
            Thread.sleep(25);
        }
    }

    @Test
    void aRequestIsAcceptedAtOnceButAnsweredOnlyOnceTheReplicaHasCaughtUp() throws Exception {
        post("held-1");
        passes();
        assertThat(fixture.replies(REPLY_TOPIC).readValuesToList()).extracting(ReplyEvent::getType).containsExactly(ReplyType.ACCEPTED);
        assertThat(fixture.admission().inFlight()).as("admitted and pending").isEqualTo(1);
        assertThat(fixture.audit().isEmpty()).isTrue();

        caughtUp.set(true);
        fixture.awaitIdle();
        List<ReplyEvent> events = fixture.replies(REPLY_TOPIC).readValuesToList();
        assertThat(events).extracting(ReplyEvent::getType).containsExactly(ReplyType.CITATIONS, ReplyType.ANSWER);
        assertThat(events.get(1).getCitations()).extracting(c -> c.getRowKey()).containsExactly("c1");
        assertThat(catchUpsTaken).as("taken once, when the task started").hasValue(1);
    }

    @Test
    void aTaskThatClosesFreesTheSlotsOfTheRequestsItHeld() throws Exception {
        post("held-2");
        post("held-3");
        passes();
        AdmissionControl admission = fixture.admission();
        assertThat(admission.inFlight()).isEqualTo(2);

        fixture.stop();

        assertThat(admission.inFlight()).as("the slots of requests the next owner answers are free here").isZero();
    }
}
