package org.chartstream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TelemetrySwitchTest {

    @Test
    void withTheSwitchSetTheApplicationRunsInThisJvm() {
        assertThat(TelemetrySwitch.relaunchCommand(Map.of("ORT_DISABLE_TELEMETRY", "1"), "/jdk", List.of("-Xmx3g"), "app.jar",
                new String[] {"demo"})).isEmpty();
    }

    @Test
    void withoutItTheSameJvmOptionsClassPathAndArgumentsRunInAChildThatCannotRelaunchAgain() {
        List<String> command = TelemetrySwitch.relaunchCommand(Map.of("ORT_DISABLE_TELEMETRY", "0"), "/jdk",
                List.of("-Xmx3g", "-Dchartstream.home=/srv/cs"), "app/target/chartstream-app.jar", new String[] {"ask", "who?"}).orElseThrow();

        assertThat(command).containsExactly("/jdk/bin/java", "-Xmx3g", "-Dchartstream.home=/srv/cs",
                "--add-modules", "jdk.incubator.vector",
                "-D" + TelemetrySwitch.RELAUNCHED + "=true", "-cp", "app/target/chartstream-app.jar", Main.class.getName(), "ask", "who?");
    }

    @Test
    void aChildOfAJvmThatHasTheVectorModuleGetsItOnce() {
        List<String> command = TelemetrySwitch.relaunchCommand(Map.of(), "/jdk",
                List.of("--add-modules=jdk.incubator.vector"), "app.jar", new String[] {"demo"}).orElseThrow();

        assertThat(command).containsExactly("/jdk/bin/java", "--add-modules=jdk.incubator.vector",
                "-D" + TelemetrySwitch.RELAUNCHED + "=true", "-cp", "app.jar", Main.class.getName(), "demo");
    }

    @Test
    void theChildGetsTheSwitchInItsEnvironmentAndItsExitCodeIsReturned() {
        assertThat(TelemetrySwitch.run(List.of("sh", "-c", "[ \"$ORT_DISABLE_TELEMETRY\" = 1 ] && exit 7 || exit 9"))).isEqualTo(7);
    }
}
