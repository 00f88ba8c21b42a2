package org.chartstream.app.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.chartstream.app.Main;
import org.chartstream.client.QueryClient;
import org.chartstream.client.ReplyFormat;
import org.chartstream.schemas.QueryRequest;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.ReplyType;
import org.chartstream.schemas.RetrievalFilterSpec;
import org.chartstream.schemas.SearchMode;
import org.chartstream.schemas.Topics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** Posts one question to a running pipeline and prints the reply as it arrives. */
@Command(name = "ask", mixinStandardHelpOptions = true, description = {"Post a question to a running pipeline (`chartstream run`) and print the reply.",
        "Finds the broker from the running pipeline's data directory unless --bootstrap is given;",
        "fails within about 5 s, naming the address, when no pipeline answers there."})
public final class AskCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "QUESTION", description = "the question")
    String question;

    @Option(names = "--bootstrap", description = "Kafka bootstrap servers of the pipeline")
    String bootstrap;

    @Option(names = "--mode", description = "hybrid | vector | lexical (default: ${DEFAULT-VALUE})", defaultValue = "hybrid")
    String mode;

    @Option(names = "--top-k", description = "passages to cite (default: query.top-k)")
    Integer topK;

    @Option(names = "--patient", description = "only this patient's records (patient number)")
    String patient;

    @Option(names = "--table", description = "only these tables (repeatable)")
    List<String> tables = new ArrayList<>();

    @Option(names = "--user", description = "user id sent with the request (default: ${DEFAULT-VALUE})", defaultValue = "cli")
    String user;

    @Option(names = "--conversation", description = "conversation id (default: a new one)")
    String conversation;

    @Option(names = "--timeout", description = "seconds to wait for the final reply (default: ${DEFAULT-VALUE})", defaultValue = "60")
    int timeoutSeconds;

    @Option(names = "--json", description = "print each reply event as one JSON line, then the summary object (with the completeness, the cohort and a whole-set answer's counts and lists as `set`)")
    boolean json;

    @Override
    public Integer call() throws Exception {
        var config = main.config();
        String servers = RunCommand.reachableBootstrap(config, bootstrap, org.chartstream.runtime.PipelineRuntime.QUERY_APPLICATION_ID);
        QueryRequest request = QueryRequest.newBuilder().setRequestId(UUID.randomUUID().toString())
                .setConversationId(conversation != null ? conversation : UUID.randomUUID().toString()).setUserId(user)
                .setQuestion(question).setMode(SearchMode.valueOf(mode.toUpperCase(Locale.ROOT)))
                .setTopK(topK != null ? topK : (int) config.integer("query.top-k"))
                .setFilter(patient == null && tables.isEmpty() ? null
                        : RetrievalFilterSpec.newBuilder().setPatient(patient).setTables(tables).build())
                .build();
        try (QueryClient client = new QueryClient(servers, org.chartstream.runtime.config.TransportSecurity.kafkaClientProperties(config), Topics.REPLIES)) {
            List<ReplyEvent> events = client.ask(request, Duration.ofSeconds(timeoutSeconds), e -> {
                if (json) {
                    System.out.println(e.toString());
                } else if (e.getType() == ReplyType.ACCEPTED) {
                    System.out.println("(accepted " + e.getRequestId() + ")");
                } else if (e.getType() == ReplyType.TOKEN) {
                    System.out.print(e.getText());
                    System.out.flush();
                }
            });
            System.out.println(json ? ReplyFormat.json(question, events) : ReplyFormat.text(question, events));
            ReplyType last = ReplyFormat.finalEvent(events).getType();
            return last == ReplyType.ANSWER || last == ReplyType.REFUSED ? 0 : 2;
        }
    }

    static Path runtimeFile(Path dataDir) {
        return RuntimeFile.path(dataDir);
    }

    static boolean running(Path dataDir) {
        return Files.exists(runtimeFile(dataDir));
    }
}
