package org.chartstream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {

  @Test
  void ticksAreUserAndSystemTimeEvenWhenTheNameHoldsSpacesAndParentheses() {
    String stat = "4711 (a (b) c) S 1 4711 4711 0 -1 4194368 100 0 0 0 250 37 9 9 20 0 1 0 1234 0 0";

    assertThat(ProcessCpu.ticks(stat)).isEqualTo(287);
    assertThat(ProcessCpu.ticksWithWaitedChildren(stat)).as("with cutime and cstime").isEqualTo(305);
    assertThat(ProcessCpu.threadName(stat)).isEqualTo("a (b) c");
  }

  @Test
  void compilerAndCollectorThreadsAreToldApartByTheirTruncatedNames() {
    assertThat(ProcessCpu.kind("C2 CompilerThre")).isEqualTo(ProcessCpu.ThreadKind.COMPILER);
    assertThat(ProcessCpu.kind("C1 CompilerThre")).isEqualTo(ProcessCpu.ThreadKind.COMPILER);
    assertThat(ProcessCpu.kind("GC Thread#1")).isEqualTo(ProcessCpu.ThreadKind.GC);
    assertThat(ProcessCpu.kind("G1 Conc#0")).isEqualTo(ProcessCpu.ThreadKind.GC);
    assertThat(ProcessCpu.kind("chartstream-ing")).isEqualTo(ProcessCpu.ThreadKind.OTHER);
    assertThat(ProcessCpu.kind("java")).isEqualTo(ProcessCpu.ThreadKind.OTHER);
  }

  @Test
  void thisJvmsReadingGrowsWithWorkAndHoldsItsCompilerAndCollectorShares() {
    ProcessCpu before = ProcessCpu.self().orElseThrow();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long spinUntil = threads.getCurrentThreadCpuTime() + 300_000_000L; // CPU time, not wall time: the machine may be busy
    double sink = 0;
    while (threads.getCurrentThreadCpuTime() < spinUntil) {
      sink += Math.sqrt(sink + 1);
    }
    ProcessCpu used = ProcessCpu.self().orElseThrow().minus(before);

    assertThat(sink).isPositive();
    assertThat(used.totalS()).isGreaterThanOrEqualTo(0.2);
    assertThat(before.compilerS()).isPositive();
    assertThat(before.totalS()).isGreaterThanOrEqualTo(before.compilerS() + before.gcS());
  }

  @Test
  void theCpuOfAProcessTreeIsFoundByItsExecutableAndCommandLineAndOthersAreLeftOut() throws Exception {
    // the executable /proc names: /bin/sh is a link (to dash on Debian)
    String shell = java.nio.file.Path.of("/bin/sh").toRealPath().getFileName().toString();
    String marker = "process-tree-" + System.nanoTime();
    assertThat(ProcessCpu.processTree(shell, marker)).as("no such process yet").isEmpty();
    // the loop runs in the shell itself, its child sleeps: the tree's CPU is the shell's
    Process busy = new ProcessBuilder("/bin/sh", "-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done; sleep 30; : " + marker).start();
    try {
      long deadline = System.nanoTime() + 60_000_000_000L;
      Optional<ProcessCpu> used = Optional.empty();
      while (System.nanoTime() < deadline) {
        used = ProcessCpu.processTree(shell, marker);
        if (used.isPresent() && used.get().totalS() >= 0.2) {
          break;
        }
        Thread.sleep(100);
      }
      assertThat(used).isPresent();
      assertThat(used.get().totalS()).isGreaterThanOrEqualTo(0.2);
      assertThat(ProcessCpu.processTree(shell, marker + "-other")).as("another command line").isEmpty();
    } finally {
      busy.destroyForcibly().waitFor();
    }
  }

  @Test
  void aProcessThatCannotBeReadGivesNothingAndItsJsonIsNull() {
    Optional<ProcessCpu> gone = ProcessCpu.read(Long.MAX_VALUE);

    assertThat(gone).isEmpty();
    assertThat(ProcessCpu.jsonBetween(gone, ProcessCpu.self())).isEqualTo("null");
    assertThat(new ProcessCpu(12.34, 5.0, 0.25).minus(new ProcessCpu(2.0, 1.0, 0.0)).json())
        .isEqualTo("{\"total\":10.3, \"compiler\":4.0, \"gc\":0.3}");
  }
}
