package org.chartstream.retrieval.rewrite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.chartstream.core.llm.ChatModel;
import org.chartstream.core.llm.ChatRequest;
import org.chartstream.core.llm.ChatResult;

/**
 * Rewrite with memory and expansion in one call to the local LLM.
 *
 * <ul>
 *   <li>With conversation history the model resolves references into a standalone question; without history the
 *       question is already standalone and only expansions are asked for.</li>
 *   <li>Expansions (up to {@code totalQueries - 1}) are asked for unless {@link ExpansionRules} skip them for the
 *       question, and dropped when the standalone rewrite itself falls under a skip rule.</li>
 *   <li>No history and no expansion wanted: no call at all.</li>
 *   <li>A failed call (unavailable, timeout, HTTP error), an unparseable reply, or a rewrite that lost one of the
 *       question's identifiers or quoted phrases: the question as asked, with the reason.</li>
 * </ul>
 */
public final class LlmQueryRewriter implements QueryRewriter {
    /** Output tokens for the JSON frame, and for each query in it: a cap that stops a rambling model early. */
    private static final int FRAME_TOKENS = 64;
    private static final int TOKENS_PER_QUERY = 96;

    private final ChatModel model;
    private final RewriteSettings settings;

    public LlmQueryRewriter(ChatModel model, RewriteSettings settings) {
        this.model = Objects.requireNonNull(model, "model");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public RewriteResult rewrite(String question, ConversationHistory history) {
        Objects.requireNonNull(question, "question");
        ConversationHistory context = history == null ? ConversationHistory.EMPTY : history;
        boolean resolve = !context.isEmpty();
        Optional<String> skip = ExpansionRules.skipReason(question);
        int alternatives = skip.isPresent() ? 0 : settings.totalQueries() - 1;
        if (!resolve && alternatives == 0) {
            return RewriteResult.unchanged(question, "no conversation history; "
                    + skip.map(r -> "expansion skipped: " + r).orElse("expansion off (1 query in total)"));
        }

        ChatRequest request = ChatRequest.of(RewritePrompt.messages(question, context, alternatives, settings))
                .withDeadline(settings.deadline()).withMaxTokens(FRAME_TOKENS + TOKENS_PER_QUERY * (1 + alternatives));
        ChatResult result = model.complete(request);
        if (result instanceof ChatResult.Failed failed) {
            return RewriteResult.unchanged(question, "rewrite call failed (" + failed.describe() + "): question searched as asked");
        }
        String content = ((ChatResult.Completed) result).content();
        Optional<RewriteOutput.Parsed> parsed = RewriteOutput.parse(content);
        if (parsed.isEmpty()) {
            return RewriteResult.unchanged(question, "rewrite output malformed (no JSON object with standalone and alternatives):"
                    + " question searched as asked");
        }

        String primary = question;
        boolean rewritten = false;
        if (resolve) {
            String standalone = clean(parsed.get().standalone());
            if (standalone == null) {
                return RewriteResult.unchanged(question, "rewrite output malformed (no usable standalone question):"
                        + " question searched as asked");
            }
            List<String> lost = lostExactParts(question, standalone);
            if (!lost.isEmpty()) {
                return RewriteResult.unchanged(question, "rewrite dropped " + lost.size()
                        + " exact term(s) of the question: question searched as asked");
            }
            rewritten = !normalise(standalone).equals(normalise(question));
            primary = standalone;
        }

        List<String> queries = new ArrayList<>(List.of(primary));
        Optional<String> skipAfterRewrite = rewritten ? ExpansionRules.skipReason(primary) : Optional.empty();
        if (alternatives > 0 && skipAfterRewrite.isEmpty()) {
            Map<String, String> distinct = new LinkedHashMap<>();
            distinct.put(normalise(primary), primary);
            for (String alternative : parsed.get().alternatives()) {
                String a = clean(alternative);
                if (a != null && distinct.size() < settings.totalQueries()) {
                    distinct.putIfAbsent(normalise(a), a);
                }
            }
            queries = new ArrayList<>(distinct.values());
        }
        boolean expanded = queries.size() > 1;
        return new RewriteResult(question, queries, rewritten, expanded, reason(resolve, rewritten, context, skip,
                skipAfterRewrite, alternatives, queries.size()));
    }

    private String reason(boolean resolve, boolean rewritten, ConversationHistory history, Optional<String> skip,
                          Optional<String> skipAfterRewrite, int alternatives, int queries) {
        StringBuilder reason = new StringBuilder();
        if (!resolve) {
            reason.append("no conversation history");
        } else {
            int turns = history.lastTurns(settings.maxTurns()).size();
            reason.append(rewritten ? "rewritten as a standalone question" : "question already standalone")
                    .append(" (").append(turns).append(turns == 1 ? " turn" : " turns")
                    .append(history.summary().isEmpty() ? "" : " and a summary").append(')');
        }
        if (skip.isPresent()) {
            reason.append("; expansion skipped: ").append(skip.get());
        } else if (skipAfterRewrite.isPresent()) {
            reason.append("; expansion skipped after rewrite: ").append(skipAfterRewrite.get());
        } else if (alternatives > 0) {
            reason.append("; expanded to ").append(queries).append(queries == 1 ? " query" : " queries");
            if (queries < settings.totalQueries()) {
                reason.append(" (model gave ").append(queries - 1).append(" usable of ").append(alternatives).append(')');
            }
        }
        return reason.toString();
    }

    private String clean(String query) {
        if (query == null) {
            return null;
        }
        String oneLine = query.replaceAll("\\s+", " ").strip();
        return oneLine.isEmpty() || oneLine.length() > settings.maxQueryChars() ? null : oneLine;
    }

    private static List<String> lostExactParts(String question, String rewrite) {
        List<String> lost = new ArrayList<>();
        for (String part : ExpansionRules.exactParts(question)) {
            String inner = part.length() > 2 && (part.startsWith("\"") || part.startsWith("“"))
                    ? part.substring(1, part.length() - 1) : part;
            if (!rewrite.contains(inner)) {
                lost.add(part);
            }
        }
        return lost;
    }

    private static String normalise(String query) {
        return query.toLowerCase(Locale.ROOT).replaceAll("[\\p{Punct}\\s]+", " ").strip();
    }
}
