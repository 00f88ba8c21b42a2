package org.chartstream.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.chartstream.runtime.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeFileTest {
    @TempDir
    Path dataDir;

    @Test
    void whatIsWrittenIsReadBack() throws Exception {
        RuntimeFile file = new RuntimeFile("127.0.0.1:40123", ProcessHandle.current().pid());
        file.write(dataDir);
        assertThat(RuntimeFile.parse(Files.readString(RuntimeFile.path(dataDir)))).contains(file);
        assertThat(RuntimeFile.runningBootstrap(dataDir)).isEqualTo("127.0.0.1:40123");
    }

    @Test
    void aFileWithoutABrokerNamesNone() {
        assertThat(RuntimeFile.parse("pid=12\n")).isEmpty();
        assertThat(RuntimeFile.parse("")).isEmpty();
        assertThat(RuntimeFile.parse("bootstrap.servers=h:1\npid=x\n")).contains(new RuntimeFile("h:1", -1));
    }

    @Test
    void aFileLeftByAKilledRunNamesItsAddressAndSaysItsWriterIsGone() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        new RuntimeFile("127.0.0.1:40999", gone.pid()).write(dataDir);
        assertThatThrownBy(() -> RuntimeFile.runningBootstrap(dataDir)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("no pipeline answers at 127.0.0.1:40999")
                .hasMessageContaining("pid " + gone.pid() + ") is no longer running");
    }

    @Test
    void noFileMeansNoRunningPipeline() {
        assertThatThrownBy(() -> RuntimeFile.runningBootstrap(dataDir)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("no running pipeline found");
    }

    @Test
    void aStartingRunDeletesAKilledRunsFileButNotALiveOnes() throws Exception {
        new RuntimeFile("h:1", ProcessHandle.current().pid()).write(dataDir);
        RuntimeFile.deleteIfWriterGone(dataDir);
        assertThat(RuntimeFile.path(dataDir)).exists();
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        new RuntimeFile("h:1", gone.pid()).write(dataDir);
        RuntimeFile.deleteIfWriterGone(dataDir);
        assertThat(RuntimeFile.path(dataDir)).doesNotExist();
    }

    @Test
    void aRunDeletesOnlyItsOwnFile() throws Exception {
        new RuntimeFile("h:1", 4242424).write(dataDir);
        RuntimeFile.deleteIfWrittenBy(dataDir, 1);
        assertThat(RuntimeFile.path(dataDir)).exists();
        RuntimeFile.deleteIfWrittenBy(dataDir, 4242424);
        assertThat(RuntimeFile.path(dataDir)).doesNotExist();
    }
}
