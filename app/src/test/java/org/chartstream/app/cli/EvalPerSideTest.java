package org.chartstream.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.chartstream.runtime.config.ChartstreamConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The eval searches each side as deep as the pipeline is configured to, unless --per-side says otherwise. */
class EvalPerSideTest {

    private static EvalCommand parsed(String... args) {
        EvalCommand command = new EvalCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void withoutTheOptionTheEvalAsksTheConfiguredCandidatesPerSide() {
        assertThat(parsed("--beir", "corpus").perSide(ChartstreamConfig.defaults()))
                .isEqualTo(ChartstreamConfig.defaults().integer("query.per-side"));
        assertThat(parsed("--beir", "corpus").perSide(ChartstreamConfig.defaults().with("query.per-side", "70"))).isEqualTo(70);
    }

    @Test
    void theOptionOverridesTheConfiguredDepth() {
        assertThat(parsed("--clinical", "--per-side", "100").perSide(ChartstreamConfig.defaults().with("query.per-side", "70")))
                .isEqualTo(100);
    }

    @Test
    void aDepthBelowFiftyIsRefusedBecauseRecallAt50WouldLookAtAShorterList() {
        assertThatThrownBy(() -> parsed("--beir", "corpus").perSide(ChartstreamConfig.defaults().with("query.per-side", "30")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Recall@50").hasMessageContaining("30");
        assertThatThrownBy(() -> parsed("--beir", "corpus", "--per-side", "49").perSide(ChartstreamConfig.defaults()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Recall@50").hasMessageContaining("49");
    }
}
