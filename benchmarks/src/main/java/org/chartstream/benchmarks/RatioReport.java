package org.chartstream.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs every benchmark of this package through JMH and prints each one's time per operation and its ratio to the
 * baseline measured in the same run ({@link ModelBenchmark#embedQueryBaseline}: the raw ONNX embedding of one short
 * query). The machines are shared and noisy; the ratios are what carries over between runs.
 *
 * <pre>ORT_DISABLE_TELEMETRY=1 java -cp benchmarks/target/benchmarks.jar org.chartstream.benchmarks.RatioReport [--json FILE]</pre>
 *
 * <p>JMH's progress goes to stderr, the table to stdout; {@code --json FILE} also writes the table as JSON. The JMH
 * forks inherit this JVM's environment and its short class path (the jar's manifest carries the rest).
 */
public final class RatioReport {
    static final String BASELINE = ModelBenchmark.class.getName() + ".embedQueryBaseline";

    /** One benchmark's figures. */
    record Row(String name, double usPerOp, double errorUs, double ratio) {
    }

    private RatioReport() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        Path json = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--json") && i + 1 < args.length) {
                json = Path.of(args[++i]);
            } else {
                System.err.println("usage: ORT_DISABLE_TELEMETRY=1 java -cp benchmarks/target/benchmarks.jar "
                        + RatioReport.class.getName() + " [--json FILE]");
                System.exit(args[i].equals("--help") ? 0 : 2);
            }
        }
        if (!"1".equals(System.getenv("ORT_DISABLE_TELEMETRY"))) {
            System.err.println("set ORT_DISABLE_TELEMETRY=1 (ONNX Runtime's telemetry client starts otherwise;"
                    + " docs/OPERATIONS.md). The JMH forks inherit it from this process.");
            System.exit(2);
        }
        Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        double loadBefore = loadAverage();
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(RatioReport.class.getPackageName().replace(".", "\\.") + "\\..*")
                .shouldFailOnError(true)
                .build(), OutputFormatFactory.createFormatInstance(System.err, VerboseMode.NORMAL)).run();
        double loadAfter = loadAverage();
        List<Row> rows = rows(results);
        String facts = String.format(Locale.ROOT, "started %s, %d s, load average (1 min) %.2f at start, %.2f at end,"
                        + " %d CPUs, Java %s", start, ChronoUnit.SECONDS.between(start, Instant.now()), loadBefore,
                loadAfter, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        System.out.println(facts);
        System.out.print(table(rows));
        if (json != null) {
            Files.writeString(json, json(rows, start, loadBefore, loadAfter), StandardCharsets.UTF_8);
            System.out.println("written: " + json);
        }
    }

    /** The results as rows, baseline first, the rest slowest first; ratio = time / baseline time. */
    static List<Row> rows(Collection<RunResult> results) {
        RunResult baseline = results.stream().filter(r -> r.getParams().getBenchmark().equals(BASELINE)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the run has no baseline " + BASELINE));
        double base = microseconds(baseline);
        List<Row> rows = new ArrayList<>();
        for (RunResult r : results) {
            double us = microseconds(r);
            rows.add(new Row(shortName(r.getParams().getBenchmark()), us, r.getPrimaryResult().getScoreError(), us / base));
        }
        rows.sort(Comparator.comparing((Row r) -> !r.name().equals(shortName(BASELINE)))
                .thenComparing(Comparator.comparingDouble(Row::usPerOp).reversed()));
        return rows;
    }

    private static double microseconds(RunResult r) {
        String unit = r.getPrimaryResult().getScoreUnit();
        if (!unit.equals("us/op")) {
            throw new IllegalStateException(r.getParams().getBenchmark() + " reports " + unit + ", expected us/op");
        }
        return r.getPrimaryResult().getScore();
    }

    /** {@code QueryPathBenchmark.rowFusion} for the full method name. */
    static String shortName(String benchmark) {
        String[] parts = benchmark.split("\\.");
        return parts[parts.length - 2] + "." + parts[parts.length - 1];
    }

    /** A Markdown table: benchmark, µs/op (± JMH's 99.9 % error), × baseline. */
    static String table(List<Row> rows) {
        StringBuilder out = new StringBuilder("| benchmark | µs/op | × baseline |\n|---|---:|---:|\n");
        for (Row r : rows) {
            out.append("| ").append(r.name()).append(" | ").append(number(r.usPerOp())).append(" ± ")
                    .append(number(r.errorUs())).append(" | ").append(number(r.ratio())).append(" |\n");
        }
        return out.toString();
    }

    static String json(List<Row> rows, Instant start, double loadBefore, double loadAfter) {
        StringBuilder out = new StringBuilder("{\"started\":\"").append(start).append("\", \"baseline\":\"")
                .append(shortName(BASELINE)).append(String.format(Locale.ROOT, "\", \"load_average_start\":%.2f,"
                        + " \"load_average_end\":%.2f, \"benchmarks\":[", loadBefore, loadAfter));
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            out.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT,
                    "{\"name\":\"%s\", \"us_per_op\":%s, \"error_us\":%s, \"ratio\":%s}", r.name(), number(r.usPerOp()),
                    number(r.errorUs()), number(r.ratio())));
        }
        return out.append("]}\n").toString();
    }

    /** Whole numbers from 100 up, else three significant digits, never in scientific notation. */
    static String number(double value) {
        if (!Double.isFinite(value)) {
            return "null";
        }
        return Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%.0f", value)
                : new BigDecimal(value).round(new MathContext(3)).toPlainString();
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
