package org.chartstream.retrieval.rewrite;

/**
 * Turns the latest question of a conversation into the queries to search with: a standalone rewrite (references to
 * earlier turns resolved) plus expansions. Never fails: when it cannot do better it returns the question as asked,
 * saying why.
 */
public interface QueryRewriter {
    RewriteResult rewrite(String question, ConversationHistory history);
}
