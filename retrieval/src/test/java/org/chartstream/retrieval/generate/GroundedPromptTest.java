package org.chartstream.retrieval.generate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.chartstream.core.llm.ChatMessage;
import org.junit.jupiter.api.Test;

class GroundedPromptTest {

    @Test
    void numbersThePassagesAndAllowsOnlyTheirNumbers() {
        List<ChatMessage> messages = GroundedPrompt.messages("What does Ana Ruiz take?", TestPassages.six());

        String system = messages.get(0).content();
        assertThat(messages.get(0).role()).isEqualTo(ChatMessage.Role.SYSTEM);
        assertThat(system).contains("only the numbered record passages", "as [n]", "from 1 to 6", "Never cite any other number",
                "reply exactly: " + GroundedPrompt.REFUSAL);
        String user = messages.get(1).content();
        assertThat(user).startsWith("Passages:\n[1] record: medications").contains("\n\n[6] record: notes")
                .endsWith("Question: What does Ana Ruiz take?");
    }

    @Test
    void recognisesTheRefusalSentence() {
        assertThat(GroundedPrompt.isRefusal(GroundedPrompt.REFUSAL)).isTrue();
        assertThat(GroundedPrompt.isRefusal("  the records do NOT support an answer to this question")).isTrue();
        assertThat(GroundedPrompt.isRefusal("The records do not support an answer.")).isTrue();
        assertThat(GroundedPrompt.isRefusal("Ana Ruiz takes lisinopril [1].")).isFalse();
        assertThat(GroundedPrompt.isRefusal("The records show she takes lisinopril [1].")).isFalse();
    }
}
