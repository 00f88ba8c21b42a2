package org.chartstream.retrieval.gate;

/** What kind of answer a question asks for, which decides how strict the gate is. */
public enum QuestionScope {
    /** One fact about one thing ("what dose of lisinopril does Ana Ruiz take?"): needs strong evidence. */
    POINTED,
    /** A list, summary or cohort ("which patients have asthma?", "summarise her visits"): answered from what was found. */
    BROAD
}
