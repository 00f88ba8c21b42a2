package org.chartstream.core.llm;

import java.util.Objects;

/** One message of a chat-completions conversation. */
public record ChatMessage(Role role, String content) {

    public enum Role {
        SYSTEM("system"), USER("user"), ASSISTANT("assistant");

        private final String wireName;

        Role(String wireName) {
            this.wireName = wireName;
        }

        /** The role as the OpenAI protocol spells it. */
        public String wireName() {
            return wireName;
        }
    }

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }

    public static ChatMessage system(String content) {
        return new ChatMessage(Role.SYSTEM, content);
    }

    public static ChatMessage user(String content) {
        return new ChatMessage(Role.USER, content);
    }

    public static ChatMessage assistant(String content) {
        return new ChatMessage(Role.ASSISTANT, content);
    }

    /** Role and size only: message text can be patient data. */
    @Override
    public String toString() {
        return "ChatMessage[" + role.wireName + ", " + content.length() + " chars]";
    }
}
