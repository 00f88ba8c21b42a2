package org.chartstream.retrieval.gate;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rule-based: a question is {@link QuestionScope#BROAD} when any rule below matches (case-insensitive, whole words),
 * else {@link QuestionScope#POINTED}. Broad questions are answered from whatever was retrieved, because their
 * individual passages each match only part of the question and score low even when they are exactly what was asked
 * for; pointed questions need one passage that answers them.
 *
 * <ol>
 *   <li><b>list verb</b>: starts with list, enumerate, summarise/summarize, outline, tabulate, or "give/show (me)" a
 *       list, a summary, an overview or all;</li>
 *   <li><b>summary noun</b>: summary, overview, timeline;</li>
 *   <li><b>quantifier</b>: all, every, each, anyone, anybody, everyone, everybody;</li>
 *   <li><b>counting</b>: how many, up to two words, then a plural record noun (below), patients, persons, records or
 *       times: a count of records ("How many visits did she have?"), not a quantity one record states ("How many
 *       beds does the intensive care unit have?", "How many milligrams does she take?"), which is pointed;</li>
 *   <li><b>cohort</b>: the plural "patients";</li>
 *   <li><b>which/what + plural record noun</b>: which or what, up to two words, then encounters, visits, conditions,
 *       diagnoses, medications, medicines, drugs, prescriptions, allergies, procedures, observations, labs, results,
 *       tests, notes, immunizations, vaccinations, problems, symptoms, people;</li>
 *   <li><b>record noun alone</b>: nothing but a plural record noun, after an optional "and", a determiner and one
 *       more word: a follow-up's "And the conditions?" asks for all of the patient's conditions.</li>
 * </ol>
 */
public final class QuestionScopeClassifier {

    /** The scope and the rule that decided it ("none" for a pointed question). */
    public record Classification(QuestionScope scope, String rule) {
    }

    private record Rule(String name, Pattern pattern) {
    }

    private static final String RECORD_NOUNS = "encounters|visits|conditions|diagnoses|medications|medicines|drugs"
            + "|prescriptions|allergies|procedures|observations|labs|results|tests|notes|immunizations|vaccinations|problems"
            + "|symptoms|people";

    private static final List<Rule> BROAD_RULES = List.of(
            new Rule("list verb", Pattern.compile("^\\W*(?:please\\s+)?(?:list|enumerate|summari[sz]e|outline|tabulate"
                    + "|(?:give|show)(?:\\s+me)?\\s+(?:a\\s+list|a\\s+summary|an\\s+overview|all))\\b")),
            new Rule("summary noun", Pattern.compile("\\b(?:summary|overview|timeline)\\b")),
            new Rule("quantifier", Pattern.compile("\\b(?:all|every|each|anyone|anybody|everyone|everybody)\\b")),
            new Rule("counting", Pattern.compile("\\bhow\\s+many\\s+(?:[\\w'-]+\\s+){0,2}?(?:" + RECORD_NOUNS
                    + "|patients|persons|records|times)\\b")),
            new Rule("cohort", Pattern.compile("\\bpatients\\b")),
            new Rule("which/what + plural record noun", Pattern.compile("\\b(?:which|what)\\s+(?:[\\w'-]+\\s+){0,2}?"
                    + "(?:" + RECORD_NOUNS + ")\\b")),
            new Rule("record noun alone", Pattern.compile("^\\W*(?:(?:and|also|plus|or)\\s+)?(?:(?:the|her|his|their)\\s+)?"
                    + "(?:[\\w'-]+\\s+)?(?:" + RECORD_NOUNS + ")\\W*$")));

    private QuestionScopeClassifier() {
    }

    public static Classification classify(String question) {
        String q = question.toLowerCase(Locale.ROOT).strip();
        for (Rule rule : BROAD_RULES) {
            Matcher m = rule.pattern().matcher(q);
            if (m.find()) {
                return new Classification(QuestionScope.BROAD, rule.name());
            }
        }
        return new Classification(QuestionScope.POINTED, "none");
    }
}
