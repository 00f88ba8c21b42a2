package org.chartstream.app.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.chartstream.app.cli.DemoConversations;
import org.chartstream.app.cli.DemoQuestions;
import org.chartstream.datasets.ClinicalDataset;
import org.chartstream.datasets.ClinicalDatasetGenerator;
import org.chartstream.datasets.DatasetSpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real {@code demo} command ({@code java -jar chartstream-app.jar demo --json}, without
 * {@code ORT_DISABLE_TELEMETRY} in the environment, as a user might) in a child process under {@code strace}, with
 * the app's own loggers at DEBUG and every logger the shipped configuration does not name at
 * INFO (more than a site runs with), and checks the two privacy promises:
 * <ul>
 *   <li>no log line holds a demo question or a patient's name, number or id. The logs are everything the process
 *       writes: slf4j-simple (the only binding) writes to stderr, and stdout carries nothing but the demo's answer
 *       documents, one JSON object per question, which are the product's output and not a log;</li>
 *   <li>the process tree (the JVM and the embedded PostgreSQL it starts) connects and sends to loopback and local
 *       sockets only. strace sees every connect/sendto/sendmsg/sendmmsg system call of every thread and child
 *       process, successful or not, however short-lived: nothing can reach another host without one of them.</li>
 * </ul>
 */
class DemoPrivacyBoundaryIT {
    private static final int PATIENTS = 4;
    private static final String ORT_TELEMETRY_SWITCH = "ORT_DISABLE_TELEMETRY";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    private static SensitiveTerms terms;
    private static int exitCode;
    private static String stdout;
    private static String stderr;
    private static String trace;
    private static double seconds;

    @BeforeAll
    static void runDemo() throws Exception {
        Path jar = Path.of("target", "chartstream-app.jar").toAbsolutePath();
        assertThat(jar).as("the app jar (built by the package phase before the integration tests)").isRegularFile();
        Path aciBench = DatasetSpec.defaultAciBenchDir();
        // the same dataset the demo generates; the child reads it from the cache this fills
        ClinicalDataset dataset = new ClinicalDatasetGenerator(dir.resolve("data").resolve("cache"), line -> { })
                .generate(DatasetSpec.defaults().withSeed(42).withPatients(PATIENTS).withAciBenchDir(aciBench));
        // the demo's single questions, then its conversation exchanges (a follow-up, a shared name) where the data has them
        List<String> asked = new ArrayList<>(DemoQuestions.from(dataset).stream().map(DemoQuestions.Question::text).toList());
        DemoConversations.from(dataset).forEach(x -> asked.add(x.text()));
        terms = SensitiveTerms.of(dataset, asked);

        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Path straceFile = dir.resolve("strace.txt");
        List<String> command = new ArrayList<>(List.of("strace", "-f", "--seccomp-bpf", "-qq", "-s", "96", "-e", "signal=none",
                "-e", "trace=connect,sendto,sendmsg,sendmmsg", "-o", straceFile.toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1500m",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info", "-Dorg.slf4j.simpleLogger.log.org.chartstream=debug",
                "-jar", jar.toString(), "demo", "--json", "--patients", Integer.toString(PATIENTS)));
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        Map<String, String> env = pb.environment();
        // a plain `java -jar` without the telemetry switch (nothing inherited from the test runner): the app must
        // run itself again with it (TelemetrySwitch); the ./chartstream launcher sets it as well
        env.remove(ORT_TELEMETRY_SWITCH);
        assertThat(launcherExports()).containsEntry(ORT_TELEMETRY_SWITCH, "1");
        env.put("CHARTSTREAM_DATA_DIR", dir.resolve("data").toString());
        env.put("CHARTSTREAM_DATASET_ACI_BENCH_DIR", aciBench.toString());
        env.put("CHARTSTREAM_OPS_HTTP_PORT", Integer.toString(freePort()));
        long start = System.nanoTime();
        Process process;
        try {
            process = pb.start();
        } catch (java.io.IOException e) {
            throw new AssertionError("this test observes the demo with strace, which could not be started (Debian: apt-get"
                    + " install strace; a container needs ptrace permission): " + e.getMessage(), e);
        }
        if (!process.waitFor(6, TimeUnit.MINUTES)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError("the demo did not finish within 6 minutes; stderr:\n" + tail(Files.readString(err)));
        }
        seconds = (System.nanoTime() - start) / 1e9;
        exitCode = process.exitValue();
        stdout = Files.readString(out);
        stderr = Files.readString(err);
        trace = Files.readString(straceFile);
        Files.copy(straceFile, Path.of("target", "privacy-strace.txt"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.out.printf("[privacy] demo under strace: %.1f s, exit %d, %d stderr lines, %d traced calls with a peer%n",
                seconds, exitCode, stderr.split("\n").length, ConnectionTrace.peers(trace).size());
    }

    @Test
    void theDemoAnsweredEveryQuestion() throws Exception {
        assertThat(exitCode).as("exit code; stderr:\n" + tail(stderr)).isZero();
        assertThat(answerDocuments()).hasSize(terms.questions().size());
        assertThat(stderr).contains("demo finished");
    }

    @Test
    void noLogLineHoldsAQuestionOrAPatientIdentifier() throws Exception {
        // the scan has something to find: every patient's name, number and id, and the questions...
        assertThat(terms.patientTerms()).hasSizeGreaterThanOrEqualTo(3 * PATIENTS);
        assertThat(terms.questions()).hasSizeGreaterThanOrEqualTo(4);
        // ...and finds it where it belongs: in the answer documents of this very run
        assertThat(terms.findIn(String.join("\n", answerDocuments()))).hasSizeGreaterThanOrEqualTo(terms.questions().size());
        assertThat(terms.findIn(stderr + "\nplanted: " + terms.patientTerms().get(0))).hasSize(1 + terms.findIn(stderr).size());

        List<String> log = new ArrayList<>(List.of(stderr.split("\n")));
        log.addAll(nonAnswerStdoutLines());
        assertThat(log.size()).as("log lines written (progress, INFO and DEBUG lines)").isGreaterThan(20);
        assertThat(terms.findIn(String.join("\n", log))).as("log lines with a question or a patient identifier").isEmpty();
    }

    @Test
    void theProcessTreeTalksToLoopbackAndLocalSocketsOnly() {
        List<ConnectionTrace.Peer> peers = ConnectionTrace.peers(trace);
        // the trace really observed the pipeline's traffic: TCP connections to the broker and to PostgreSQL on loopback
        assertThat(peers).filteredOn(p -> p.family().startsWith("AF_INET") && p.local()).hasSizeGreaterThan(5);
        assertThat(peers).filteredOn(p -> !p.local()).as("peers that are not loopback or local").isEmpty();
    }

    /** The {@code export NAME=value} lines of the launcher script at the project root. */
    static Map<String, String> launcherExports() throws Exception {
        Path launcher = Path.of("..", "chartstream");
        Map<String, String> exports = new java.util.TreeMap<>();
        for (String line : Files.readAllLines(launcher)) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^export ([A-Z_]+)=(\\S+)$").matcher(line.trim());
            if (m.matches()) {
                exports.put(m.group(1), m.group(2));
            }
        }
        assertThat(exports).as("exports of " + launcher).containsEntry(ORT_TELEMETRY_SWITCH, "1");
        return exports;
    }

    private static List<String> answerDocuments() throws Exception {
        List<String> docs = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            if (isAnswerDocument(line)) {
                docs.add(line);
            }
        }
        return docs;
    }

    private static List<String> nonAnswerStdoutLines() {
        List<String> rest = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            if (!line.isBlank() && !isAnswerDocument(line)) {
                rest.add(line);
            }
        }
        return rest;
    }

    private static boolean isAnswerDocument(String line) {
        try {
            JsonNode n = JSON.readTree(line);
            return n != null && n.isObject() && n.has("question") && n.has("kind") && n.has("citations");
        } catch (Exception e) {
            return false;
        }
    }

    private static String tail(String text) {
        return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
