package org.chartstream.retrieval.plan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.chartstream.core.binding.SourceBinding;
import org.chartstream.core.binding.TableRole;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.TableRef;
import org.chartstream.core.store.rowset.FieldPredicate;
import org.chartstream.core.store.rowset.RowSet;
import org.chartstream.retrieval.SetResult;
import org.chartstream.retrieval.gate.QuestionAnchors;
import org.chartstream.retrieval.plan.QuestionWords.Phrase;
import org.chartstream.retrieval.plan.QuestionWords.Role;
import org.chartstream.retrieval.scope.AdmissionMentions;

/**
 * Builds a question's {@link SetPlan} by rules over its words, the sources' bindings and the index's own vocabulary
 * ({@link ConceptVocabulary}): the frame says what is asked ({@link SetFrame}), kind words and named fields choose the
 * table ({@link RecordKinds}, {@link FieldMention}), the words left are phrases linked to the table's concepts
 * ({@link ConceptLinker}), "not"/"never"/"without" leave out the patients of what follows, a time phrase bounds the
 * table's time column and "current"/"still" asks for rows without an end. A question naming an exact code is left to
 * the cohort path. A part that cannot be resolved is never planned as if it had been: a question only a whole set
 * answers right (a count, the most frequent, a negation, a time window, an admission) is refused naming the part;
 * any other goes on to the ranked path.
 */
public final class SetPlanner {
    private static final Set<String> ARTICLES = Set.of("a", "an");
    private final Map<String, SourceBinding> bindings;
    private final Supplier<Set<TableRef>> indexed;
    private final ConceptVocabulary vocabulary;
    private final ConceptLinker linker;
    private final Function<String, List<String>> patientNames;

    /**
     * @param bindings     every source's binding, by source id
     * @param indexed      the tables the index holds
     * @param patientNames a patient key to the name and number its rows are labelled with (the words by which a
     *                     question names that patient, not concepts)
     */
    public SetPlanner(Map<String, SourceBinding> bindings, Supplier<Set<TableRef>> indexed, ConceptVocabulary vocabulary,
                      ConceptLinker linker, Function<String, List<String>> patientNames) {
        this.bindings = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(bindings));
        this.indexed = indexed;
        this.vocabulary = vocabulary;
        this.linker = linker;
        this.patientNames = patientNames;
    }

    /**
     * @param filter         the request's filter, with the patient the scope step resolved
     * @param patientNumbers the question's words naming a patient by number (not concepts)
     * @param setPatients    a follow-up over a previous whole set: its patient keys; else empty
     */
    public SetDecision plan(String question, RetrievalFilter filter, List<String> patientNumbers, List<String> setPatients) {
        List<BoundTable> tables = tables(filter);
        if (tables.isEmpty()) {
            return new SetDecision.NotASet("no bound table is indexed");
        }
        List<AdmissionMentions.Mention> admissions = AdmissionMentions.in(question, tables.stream()
                .filter(t -> t.binding().role() == TableRole.ENCOUNTER && t.binding().numberColumn() != null)
                .map(t -> t.binding().numberColumn()).distinct().toList());
        List<String> numbers = new ArrayList<>(patientNumbers);
        admissions.forEach(a -> numbers.add(a.number()));
        if (!QuestionAnchors.codes(question, numbers).isEmpty()) {
            return new SetDecision.NotASet("the question names an exact code");
        }
        QuestionWords words = QuestionWords.of(question);
        markNumbers(words, patientNumbers);
        if (filter.patient() != null) {
            markNumbers(words, patientNames.apply(filter.patient()));
        }
        admissions.forEach(a -> words.mark(wordIndex(question, a.cueStart()), wordIndex(question, a.end()), Role.SCOPE));
        Optional<TimeWindow> window = TimeWindow.in(words);
        List<FieldMention> fields = FieldMention.in(words, tables);
        SetFrame frame = SetFrame.read(words);
        RecordKinds.mark(words);
        Request request = new Request(question, words, frame, fields, window.orElse(null),
                admissions.isEmpty() ? null : admissions.get(0).number(), filter, setPatients);
        boolean strict = frame.output() == SetResult.Output.COUNT || frame.output() == SetResult.Output.TOP_VALUES
                || !words.marked(Role.NEGATION).isEmpty() || window.isPresent() || frame.current() || !admissions.isEmpty();
        if (admissions.size() > 1) {
            return new SetDecision.Refused("the question names " + admissions.size() + " admissions; ask about one at a time");
        }
        return new Planning(request, tables).plan(strict);
    }

    /** The question as read, and what the request restricts. */
    record Request(String question, QuestionWords words, SetFrame frame, List<FieldMention> fields, TimeWindow window,
                   String admission, RetrievalFilter filter, List<String> setPatients) {
        boolean scoped() {
            return filter.patient() != null || admission != null || !setPatients.isEmpty();
        }
    }

    /** One question's planning, left to right: table, concepts, left-out patients, predicates, output. */
    private final class Planning {
        private final Request request;
        private final List<BoundTable> tables;
        private final List<String> unresolved = new ArrayList<>();

        Planning(Request request, List<BoundTable> tables) {
            this.request = request;
            this.tables = tables;
        }

        SetDecision plan(boolean strict) {
            QuestionWords words = request.words();
            int negationAt = words.next(Role.NEGATION, 0);
            int split = negationAt < 0 ? words.size() : negationAt;
            List<Phrase> phrases = words.phrases();
            List<Phrase> included = phrases.stream().filter(p -> !p.negated()).toList();
            List<Phrase> left = phrases.stream().filter(Phrase::negated).toList();
            Set<RecordKinds.Kind> kinds = RecordKinds.named(words, 0, split);
            FieldMention field = request.fields().isEmpty() ? null : request.fields().get(0);
            LinkedSide side = link(included, kinds, field == null ? null : field.table());
            if (side == null) {
                return undecided(strict, unresolved.isEmpty() ? "the question names no kind of record the index holds"
                        : "could not resolve " + String.join(", ", unresolved));
            }
            BoundTable table = side.table();
            List<FieldPredicate> predicates = new ArrayList<>(side.predicates());
            String negatedField = negatedField(field, negationAt, table);
            RowSet except = null;
            List<SetPlan.Concept> excluded = List.of();
            if (negatedField != null) {
                predicates.add(new FieldPredicate.Absent(negatedField));
            } else if (!left.isEmpty()) {
                LinkedSide out = link(left, RecordKinds.named(words, split, words.size()), null);
                if (out == null || out.concepts().isEmpty()) {
                    return new SetDecision.Refused("could not resolve what the question leaves out ("
                            + String.join(", ", left.stream().map(Phrase::text).toList()) + ")");
                }
                except = new RowSet(out.table().filter(request.filter()), out.predicates());
                excluded = out.concepts();
            } else if (negationAt >= 0 && !request.frame().current()) {
                return undecided(strict, "could not resolve what the question leaves out");
            }
            if (!addScope(table, predicates)) {
                return undecided(strict, unresolvedText());
            }
            SetResult.Output output = output(table, field);
            if (output == null) {
                return new SetDecision.NotASet("the question asks for no set");
            }
            if ((output == SetResult.Output.PATIENTS || output == SetResult.Output.COUNT) && field != null
                    && field.table().equals(table) && field.start() < split && negatedField == null && field.start() > 0
                    && ARTICLES.contains(words.word(field.start() - 1))) {
                // "patients who had an organism grow", "with a date of death recorded": the field holds a value
                // ("in any form" asks for none)
                predicates.add(new FieldPredicate.Present(field.field()));
            }
            String valueField = valueField(output, table, field);
            if (output != SetResult.Output.PATIENTS && output != SetResult.Output.COUNT && output != SetResult.Output.ROWS
                    && valueField == null) {
                unresolved.add("which field to read (" + RecordKinds.recordWord(table.binding()) + " records name none)");
            }
            if (!unresolved.isEmpty() && (strict || output != SetResult.Output.PATIENTS)) {
                return undecided(strict, unresolvedText());
            }
            if (!unresolved.isEmpty()) {
                return new SetDecision.NotASet(unresolvedText());
            }
            boolean byPatients = output == SetResult.Output.COUNT ? request.frame().countPatients() : request.frame().byPatients();
            return new SetDecision.Planned(new SetPlan(output, table, new RowSet(table.filter(request.filter()), predicates),
                    except, valueField, request.frame().topN(), byPatients, side.concepts(), excluded, List.of(),
                    request.admission(), admissionRows(), request.setPatients(), describe()));
        }

        private RowSet admissionRows() {
            if (request.admission() == null) {
                return null;
            }
            return tables.stream().filter(t -> t.binding().role() == TableRole.ENCOUNTER && t.binding().numberColumn() != null)
                    .findFirst().map(t -> RowSet.of(t.filter(request.filter()),
                            FieldPredicate.AnyOf.of(t.binding().numberColumn(), request.admission())))
                    .orElse(null);
        }

        private SetDecision undecided(boolean strict, String why) {
            return strict ? new SetDecision.Refused(why) : new SetDecision.NotASet(why);
        }

        private String unresolvedText() {
            return "could not resolve " + String.join("; ", unresolved);
        }

        /** Admission, time and "current" on the table's columns; false (with the part unresolved) when it lacks one. */
        private boolean addScope(BoundTable table, List<FieldPredicate> predicates) {
            if (request.admission() != null) {
                String column = table.admissionColumn();
                if (column == null) {
                    unresolved.add("admission " + request.admission() + " (" + table.table() + " rows name no admission)");
                } else {
                    predicates.add(FieldPredicate.AnyOf.of(column, request.admission()));
                }
            }
            if (request.window() != null) {
                String time = table.binding().timeColumn();
                if (time == null) {
                    unresolved.add("\"" + request.window().text() + "\" (" + RecordKinds.recordWord(table.binding())
                            + " records carry no time of their own)");
                } else {
                    predicates.add(request.window().predicate(time));
                }
            }
            if (request.frame().current() && !predicates.stream().anyMatch(p -> p instanceof FieldPredicate.Absent)) {
                String end = table.binding().endColumn();
                if (end == null) {
                    unresolved.add("\"current\" (" + RecordKinds.recordWord(table.binding()) + " records carry no end)");
                } else {
                    predicates.add(new FieldPredicate.Absent(end));
                }
            }
            return unresolved.isEmpty();
        }

        /** "with no discharge time", "without a stop date": the named field absent, when it directly follows the negation. */
        private String negatedField(FieldMention field, int negationAt, BoundTable table) {
            if (field == null || negationAt < 0 || !field.table().equals(table)) {
                return null;
            }
            QuestionWords words = request.words();
            for (int i = negationAt + 1; i < field.start(); i++) {
                if (words.role(i) != Role.FRAME) {
                    return null;
                }
            }
            return field.start() > negationAt ? field.field() : null;
        }

        private SetResult.Output output(BoundTable table, FieldMention field) {
            SetResult.Output asked = request.frame().output();
            boolean namesValueField = field != null && field.table().equals(table)
                    && !field.field().equals(table.binding().conceptField());
            if (asked == SetResult.Output.PATIENTS && !request.setPatients().isEmpty()) {
                asked = null;
            }
            if (asked != null) {
                return asked;
            }
            if (namesValueField) {
                return SetResult.Output.VALUES;
            }
            return request.scoped() || request.frame().asksForAll() || request.window() != null || request.frame().current()
                    ? SetResult.Output.ROWS : null;
        }

        private String valueField(SetResult.Output output, BoundTable table, FieldMention field) {
            boolean ownField = field != null && field.table().equals(table);
            return switch (output) {
                case VALUES -> ownField ? field.field() : null;
                case TOP_VALUES -> ownField ? field.field() : table.binding().conceptField();
                case LATEST, EARLIEST -> table.binding().timeColumn();
                default -> ownField ? field.field() : table.binding().conceptField();
            };
        }

        /** The qualifiers of the rows in words (" of admission 24597018 since 2149 without an end"), or "". */
        private String describe() {
            String within = request.admission() != null ? " of admission " + request.admission() : "";
            String when = request.window() == null ? "" : " " + request.window().text();
            return within + when + (request.frame().current() ? " not ended (current)" : "");
        }

        /**
         * The table of a side's phrases and the predicate they link to: the tables of the side's kinds first (a named
         * field's table when the side names no kind), else every table with concepts; with no phrase, the one table of
         * the kinds or of the field. Null when no table fits (the reason in {@link #unresolved}).
         */
        private LinkedSide link(List<Phrase> phrases, Set<RecordKinds.Kind> kinds, BoundTable fieldTable) {
            // an admission named beside another kind is where the other happened ("discharge diagnoses"): the other first
            List<BoundTable> ofKinds = tables.stream().filter(t -> kinds.stream().anyMatch(k -> RecordKinds.isOf(t.binding(), k)))
                    .sorted(java.util.Comparator.comparing((BoundTable t) -> RecordKinds.isOf(t.binding(), RecordKinds.ADMISSION)))
                    .toList();
            if (phrases.isEmpty()) {
                BoundTable only = fieldTable != null ? fieldTable : ofKinds.isEmpty() ? null : ofKinds.get(0);
                if (only == null && !request.setPatients().isEmpty()) {
                    return null;
                }
                return only == null ? null : new LinkedSide(only, List.of(), List.of());
            }
            List<BoundTable> candidates = fieldTable != null ? List.of(fieldTable)
                    : !ofKinds.isEmpty() ? ofKinds : tables;
            LinkedSide best = linkIn(candidates, phrases);
            if (best == null && fieldTable == null && !ofKinds.isEmpty()) {
                best = linkIn(tables, phrases);
            }
            if (best == null) {
                String named = kindsText(candidates);
                phrases.forEach(p -> unresolved.add("\"" + p.text() + "\" (" + (named.isEmpty() ? "nothing the index holds"
                        : "no " + named + " the index holds") + " by that name)"));
            }
            return best;
        }

        /** The first table where every phrase links (their values united: alternatives), or null. */
        private LinkedSide linkIn(List<BoundTable> candidates, List<Phrase> phrases) {
            if (phrases.stream().anyMatch(Phrase::afterAnd)) {
                unresolved.add("\"and\" between two things each patient must have (ask for each, then compare)");
                return null;
            }
            for (BoundTable table : candidates) {
                String field = table.binding().conceptField();
                if (field == null) {
                    continue;
                }
                ConceptVocabulary.Values known = vocabulary.of(table, field);
                boolean drugs = RecordKinds.isOf(table.binding(), RecordKinds.MEDICATION);
                List<SetPlan.Concept> concepts = new ArrayList<>();
                Set<String> values = new LinkedHashSet<>();
                for (Phrase phrase : phrases) {
                    ConceptLinker.Link link = linker.link(phrase.words(), known.values(), drugs);
                    if (!link.linked() || !link.unused().isEmpty()) {
                        concepts = null;
                        break;
                    }
                    concepts.add(new SetPlan.Concept(phrase.text(), link.via(), link.values()));
                    values.addAll(link.values());
                }
                if (concepts != null) {
                    if (!known.complete()) {
                        unresolved.add("every " + RecordKinds.recordWord(table.binding()) + " name (the index holds more than "
                                + ConceptVocabulary.MAX_VALUES + ")");
                    }
                    return new LinkedSide(table, List.of(new FieldPredicate.AnyOf(field, values)), concepts);
                }
            }
            return null;
        }

        private static String kindsText(List<BoundTable> tables) {
            return String.join(" or ", tables.stream().filter(t -> t.binding().conceptField() != null)
                    .map(t -> RecordKinds.recordWord(t.binding())).distinct().toList());
        }
    }

    /** A side of the question resolved: its table, the predicates its phrases linked to, and the concepts. */
    private record LinkedSide(BoundTable table, List<FieldPredicate> predicates, List<SetPlan.Concept> concepts) {
    }

    /** The bound, indexed tables the request may read, in binding order. */
    private List<BoundTable> tables(RetrievalFilter filter) {
        Set<TableRef> held = indexed.get();
        List<BoundTable> out = new ArrayList<>();
        bindings.forEach((source, binding) -> describesConcepts(binding).forEach(t -> {
            boolean allowed = (filter.tables().isEmpty() || filter.tables().contains(t.table()))
                    && (filter.sourceIds().isEmpty() || filter.sourceIds().contains(source));
            if (allowed && t.role() != TableRole.DICTIONARY && held.contains(new TableRef(source, t.table()))) {
                out.add(new BoundTable(source, t));
            }
        }));
        return out;
    }

    /**
     * The indexed tables of a binding that says what its rows are (a concept on some table: a binding file); none for
     * one derived from the older keys, whose questions keep the cohort and ranked paths as before.
     */
    private static List<org.chartstream.core.binding.TableBinding> describesConcepts(SourceBinding binding) {
        boolean described = binding.tables().values().stream().anyMatch(t -> t.concept() != null || t.conceptField() != null);
        return described ? binding.indexed() : List.of();
    }

    /** Marks where the words name a patient ({@link Role#SCOPE}): each of {@code names} as a phrase of words. */
    private static void markNumbers(QuestionWords words, List<String> names) {
        for (String number : names) {
            List<String> parts = QuestionWords.of(number).words();
            int at = words.find(parts, 0);
            while (at >= 0) {
                words.mark(at, at + parts.size(), Role.SCOPE);
                at = words.find(parts, at + parts.size());
            }
        }
    }

    /** The index of the word at or after character {@code offset} of {@code question}. */
    private static int wordIndex(String question, int offset) {
        return QuestionWords.of(question.substring(0, offset)).size();
    }
}
