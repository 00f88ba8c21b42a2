package org.chartstream.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.app.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command and subcommand answers {@code --help} with its usage and exit code 0, whatever it requires. */
class HelpOptionTest {

    @Test
    void everyCommandPrintsItsUsageForHelpAndExitsZero() {
        List<String> failures = new ArrayList<>();
        CommandLine root = new CommandLine(new Main());
        for (List<String> path : commandPaths(root, new ArrayList<>())) {
            if (path.equals(List.of("help"))) {
                continue; // picocli's own `help` command takes a command name, not --help
            }
            StringWriter out = new StringWriter();
            CommandLine cli = new CommandLine(new Main());
            cli.setOut(new PrintWriter(out));
            cli.setErr(new PrintWriter(new StringWriter()));
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            int code = cli.execute(args.toArray(String[]::new));
            if (code != 0 || !out.toString().contains("Usage: chartstream " + String.join(" ", path))) {
                failures.add(String.join(" ", path) + " --help: exit " + code);
            }
        }
        assertThat(failures).isEmpty();
    }

    private static List<List<String>> commandPaths(CommandLine cli, List<String> prefix) {
        List<List<String>> paths = new ArrayList<>();
        for (Map.Entry<String, CommandLine> sub : cli.getSubcommands().entrySet()) {
            List<String> path = new ArrayList<>(prefix);
            path.add(sub.getKey());
            paths.add(path);
            paths.addAll(commandPaths(sub.getValue(), path));
        }
        return paths;
    }
}
