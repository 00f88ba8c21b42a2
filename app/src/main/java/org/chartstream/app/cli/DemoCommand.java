package org.chartstream.app.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.chartstream.app.Main;
import org.chartstream.app.ops.Operations;
import org.chartstream.client.QueryClient;
import org.chartstream.client.ReplyFormat;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ClinicalDatasetGenerator;
import org.chartstream.datasets.ClinicalDatasetLoader;
import org.chartstream.datasets.DatasetSpec;
import org.chartstream.runtime.PipelineRuntime;
import org.chartstream.runtime.config.ChartstreamConfig;
import org.chartstream.runtime.config.ConfigException;
import org.chartstream.schemas.AnswerCompleteness;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.Topics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Starts everything embedded, loads synthetic records, waits until searchable and asks a few kinds of question. */
@Command(name = "demo", mixinStandardHelpOptions = true, description = {"Run the whole pipeline on this machine: in-process Kafka (KRaft), embedded PostgreSQL",
        "filled with synthetic patients (Synthea + aci-bench notes), Debezium CDC, ingest and query topologies, Lucene.",
        "Waits until the data is searchable, asks six kinds of question (one a cohort: every patient on a drug, counted),",
        "a follow-up and a name several patients share, and prints each answer with its citations.",
        "Starts from scratch under <data.dir>/demo each time (the generated dataset is cached under <data.dir>/cache)."})
public final class DemoCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Option(names = "--json", description = "one JSON object per line per question, for machines")
    boolean json;

    @Option(names = "--patients", description = "synthetic patients to load (default: dataset.patients)")
    Integer patients;

    @Override
    public Integer call() throws Exception {
        long start = System.nanoTime();
        ChartstreamConfig config = main.config();
        if (patients != null) {
            config = config.with("dataset.patients", patients.toString());
        }
        Path dir = config.dataDir().resolve("demo");
        deleteRecursively(dir);
        ClinicalDataset dataset = generator(config).generate(spec(config));
        List<DemoQuestions.Question> questions = DemoQuestions.from(dataset);
        List<DemoConversations.Exchange> conversations = DemoConversations.from(dataset);
        int cited = 0;
        try (Operations ops = operations(config);
             PipelineRuntime runtime = PipelineRuntime.start(config, dir, c -> ClinicalDatasetLoader.load(c, dataset), RunCommand::progress)) {
            ops.attach(runtime);
            runtime.awaitSearchable(Duration.ofMinutes(10));
            try (QueryClient client = new QueryClient(runtime.bootstrapServers(), runtime.kafkaClientProperties(), Topics.REPLIES)) {
                for (DemoQuestions.Question q : questions) {
                    QueryRequest request = QueryRequest.newBuilder().setRequestId(UUID.randomUUID().toString())
                            .setConversationId(UUID.randomUUID().toString()).setUserId("demo").setQuestion(q.text())
                            .setTopK((int) config.integer("query.top-k")).build();
                    List<ReplyEvent> events = client.ask(request, Duration.ofSeconds(60), e -> { });
                    boolean expected = expectationMet(q, ReplyFormat.finalEvent(events));
                    cited += expected ? 1 : 0;
                    if (json) {
                        System.out.println(ReplyFormat.json(q.text(), events));
                    } else {
                        System.out.println("=== " + q.kind() + " ===");
                        System.out.print(ReplyFormat.text(q.text(), events));
                        System.out.println(q.answeringRows().isEmpty()
                                ? (expected ? "(refused, as expected: the records hold no answer)" : "(expected a refusal)")
                                : (expected ? "(as expected, cites " + q.expectation() + ")" : "(expected to cite " + q.expectation() + ")"));
                        System.out.println();
                    }
                }
                for (DemoConversations.Exchange x : conversations) {
                    cited += exchange(client, x, (int) config.integer("query.top-k")) ? 1 : 0;
                }
            }
        }
        RunCommand.progress(String.format("demo finished in %.1f s: %d of %d questions answered as expected",
                (System.nanoTime() - start) / 1e9, cited, questions.size() + conversations.size()));
        return 0;
    }

    /** Asks an exchange (its first turn, then its question, in one conversation), prints it, says whether it was as expected. */
    private boolean exchange(QueryClient client, DemoConversations.Exchange x, int topK) {
        String conversation = UUID.randomUUID().toString();
        List<ReplyEvent> events = null;
        for (String text : x.firstTurn() == null ? List.of(x.text()) : List.of(x.firstTurn(), x.text())) {
            QueryRequest request = QueryRequest.newBuilder().setRequestId(UUID.randomUUID().toString())
                    .setConversationId(conversation).setUserId("demo").setQuestion(text).setTopK(topK).build();
            events = client.ask(request, Duration.ofSeconds(60), e -> { });
        }
        boolean expected = x.met(ReplyFormat.finalEvent(events));
        if (json) {
            System.out.println(ReplyFormat.json(x.text(), events));
        } else {
            System.out.println("=== " + x.kind() + " ===");
            if (x.firstTurn() != null) {
                System.out.println("(after, in the same conversation: " + x.firstTurn() + ")");
            }
            System.out.print(ReplyFormat.text(x.text(), events));
            System.out.println(expected ? "(as expected: " + x.expectation() + ")" : "(expected " + x.expectation() + ")");
            System.out.println();
        }
        return expected;
    }

    /** The demo serves the operations endpoint too, but a busy port (a `run` next to it) does not stop it. */
    private static Operations operations(ChartstreamConfig config) {
        try {
            return Operations.start(config, RunCommand::progress);
        } catch (ConfigException e) {
            RunCommand.progress(e.getMessage() + "; the demo continues without the operations endpoint");
            return Operations.start(config.with("ops.http.port", "0"), RunCommand::progress);
        }
    }

    static boolean expectationMet(DemoQuestions.Question q, ReplyEvent last) {
        if (q.answeringRows().isEmpty()) {
            return last.getCitations().isEmpty();
        }
        if (q.cohortPatients() != null) {
            return cohortListed(q, last);
        }
        for (Citation c : last.getCitations()) {
            if (q.answeringRows().contains(c.getTableName() + ":" + c.getRowKey())) {
                return true;
            }
        }
        return false;
    }

    /** A cohort question: the reply says complete, counts the expected patients, and cites only answering rows. */
    static boolean cohortListed(DemoQuestions.Question q, ReplyEvent last) {
        return last.getCompleteness() == AnswerCompleteness.COMPLETE && last.getCohort() != null
                && last.getCohort().getPatients() == q.cohortPatients() && !last.getCitations().isEmpty()
                && last.getCitations().stream().allMatch(c -> q.answeringRows().contains(c.getTableName() + ":" + c.getRowKey()));
    }

    static DatasetSpec spec(ChartstreamConfig config) {
        DatasetSpec spec = DatasetSpec.defaults().withSeed(config.integer("dataset.seed")).withPatients((int) config.integer("dataset.patients"));
        String configured = config.string("dataset.aci-bench-dir");
        return configured.isEmpty() ? spec : spec.withAciBenchDir(Path.of(configured));
    }

    static ClinicalDatasetGenerator generator(ChartstreamConfig config) {
        return new ClinicalDatasetGenerator(config.dataDir().resolve("cache"), RunCommand::progress);
    }

    /** Loads the synthetic dataset into a freshly created source database. */
    static PipelineRuntime.SourceLoader datasetLoader(ChartstreamConfig config) {
        return c -> ClinicalDatasetLoader.load(c, generator(config).generate(spec(config)));
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
