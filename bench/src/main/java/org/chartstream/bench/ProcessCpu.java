package org.chartstream.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * CPU seconds a process has used: in all, on the JVM's JIT compiler threads and on its garbage collector's threads,
 * read from Linux's {@code /proc} (utime + stime). A benchmark that runs for tens of seconds on a fresh JVM pays for
 * compiling its hot code inside the measured time, once per JVM; the difference of two readings shows how much.
 * Threads that ended between two readings count in {@code total} only (the process's own counters keep them).
 */
record ProcessCpu(double totalS, double compilerS, double gcS) {
    /** Linux's USER_HZ: /proc reports CPU time in ticks of 1/100 s on every architecture. */
    private static final double TICKS_PER_SECOND = 100.0;

    /** The process's CPU so far, or empty where {@code /proc/<pid>} cannot be read (not Linux, or the process ended). */
    static Optional<ProcessCpu> read(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        try {
            double total = ticks(Files.readString(proc.resolve("stat"))) / TICKS_PER_SECOND;
            double compiler = 0;
            double gc = 0;
            try (Stream<Path> threads = Files.list(proc.resolve("task"))) {
                for (Path thread : threads.toList()) {
                    String stat;
                    try {
                        stat = Files.readString(thread.resolve("stat"));
                    } catch (NoSuchFileException ended) {
                        continue;
                    }
                    double seconds = ticks(stat) / TICKS_PER_SECOND;
                    switch (kind(threadName(stat))) {
                        case COMPILER -> compiler += seconds;
                        case GC -> gc += seconds;
                        case OTHER -> { }
                    }
                }
            }
            return Optional.of(new ProcessCpu(total, compiler, gc));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The CPU so far of the processes named {@code executable} whose command line holds {@code marker} (PostgreSQL's
     * server, by its data directory: {@code pg_ctl} starts it detached, so it is no descendant of this JVM) and of all
     * their descendants (the server's backends), each with its ended children that it waited for (a backend that ended
     * counts in the server's), without compiler or collector shares; empty when there is none or /proc cannot be read.
     */
    static Optional<ProcessCpu> processTree(String executable, String marker) {
        double total = 0;
        boolean found = false;
        List<ProcessHandle> roots = ProcessHandle.allProcesses().filter(p -> named(p, executable)
                && p.info().commandLine().map(c -> c.contains(marker)).orElse(false)).toList();
        for (ProcessHandle root : roots) {
            for (ProcessHandle p : Stream.concat(Stream.of(root), root.descendants()).toList()) {
                try {
                    total += ticksWithWaitedChildren(Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"))) / TICKS_PER_SECOND;
                    found = true;
                } catch (IOException | RuntimeException ended) {
                    // ended between the listing and the reading: its CPU is now its parent's
                }
            }
        }
        return found ? Optional.of(new ProcessCpu(total, 0, 0)) : Optional.empty();
    }

    private static boolean named(ProcessHandle p, String executable) {
        return p.info().command().map(c -> Path.of(c).getFileName().toString().equals(executable)).orElse(false);
    }

    /** This process's own CPU so far (empty where /proc cannot be read). */
    static Optional<ProcessCpu> self() {
        return read(ProcessHandle.current().pid());
    }

    enum ThreadKind { COMPILER, GC, OTHER }

    /**
     * The kind of a HotSpot thread by its name as /proc shows it (at most 15 characters): {@code C1 CompilerThread0} and
     * {@code C2 CompilerThread0} compile; {@code GC Thread#0} and G1's {@code G1 Conc#0}, {@code G1 Refine#0},
     * {@code G1 Main Marker}, {@code G1 Service} collect.
     */
    static ThreadKind kind(String threadName) {
        if (threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre")) {
            return ThreadKind.COMPILER;
        }
        if (threadName.startsWith("GC Thread") || threadName.startsWith("G1 ")) {
            return ThreadKind.GC;
        }
        return ThreadKind.OTHER;
    }

    /** utime + stime of a {@code /proc/.../stat} line, in ticks (fields 14 and 15; the name in field 2 may hold spaces and parentheses). */
    static long ticks(String statLine) {
        String[] after = statLine.substring(statLine.lastIndexOf(')') + 2).trim().split(" ");
        // after[0] is field 3 (state): field n is after[n - 3]
        return Long.parseLong(after[11]) + Long.parseLong(after[12]);
    }

    /** utime + stime + cutime + cstime (fields 14 to 17): the process's own CPU and that of its children it waited for. */
    static long ticksWithWaitedChildren(String statLine) {
        String[] after = statLine.substring(statLine.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(after[11]) + Long.parseLong(after[12]) + Long.parseLong(after[13]) + Long.parseLong(after[14]);
    }

    /** The thread or process name of a {@code /proc/.../stat} line: what lies between the first '(' and the last ')'. */
    static String threadName(String statLine) {
        return statLine.substring(statLine.indexOf('(') + 1, statLine.lastIndexOf(')'));
    }

    /** What was used between {@code earlier} and this reading. */
    ProcessCpu minus(ProcessCpu earlier) {
        return new ProcessCpu(totalS - earlier.totalS, compilerS - earlier.compilerS, gcS - earlier.gcS);
    }

    ProcessCpu plus(ProcessCpu other) {
        return new ProcessCpu(totalS + other.totalS, compilerS + other.compilerS, gcS + other.gcS);
    }

    /** {@code {"total":…, "compiler":…, "gc":…}} in seconds. */
    String json() {
        return String.format(Locale.ROOT, "{\"total\":%.1f, \"compiler\":%.1f, \"gc\":%.1f}", totalS, compilerS, gcS);
    }

    /** The JSON of the CPU used between two readings, or {@code null} when either is missing. */
    static String jsonBetween(Optional<ProcessCpu> start, Optional<ProcessCpu> end) {
        return start.isPresent() && end.isPresent() ? end.get().minus(start.get()).json() : "null";
    }
}
