package org.chartstream.retrieval.scope;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.PatientScope.PatientCandidate;
import org.chartstream.retrieval.PatientScope.Source;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.RecentTurn;

/**
 * Decides which patient a question is about before anything is searched, so that an answer never mixes patients
 * the question did not ask about:
 * <ol>
 *   <li>the request's own patient filter stands ({@link Source#REQUEST});</li>
 *   <li>a question that names a patient by a number no indexed patient has ({@link NumberMentions}:
 *       {@code patient 10014078}) is refused, naming that number ({@link Source#UNKNOWN}): answering it from other
 *       patients' rows would be a wrong answer;</li>
 *   <li>a question naming one patient (patient number, full name, or a name only one patient has) is restricted to
 *       that patient ({@link Source#NAMED}); a name several patients share gets a clarification listing them
 *       ({@link Source#AMBIGUOUS}); a question naming several different patients is not restricted;</li>
 *   <li>a question naming nobody that refers back to the patients of a previous whole-set answer ("they", "those
 *       patients") is read over that set ({@link ScopeDecision#setPatients}), its clarification kept for when it
 *       cannot be;</li>
 *   <li>a question naming nobody that refers back ({@link FollowUpCues}) inherits the previous turn's patient
 *       ({@link Source#INHERITED}); when that turn was about several patients or none, it gets a clarification;</li>
 *   <li>anything else is not restricted ({@link Source#NONE}).</li>
 * </ol>
 */
public final class ScopeResolver {
    private static final Comparator<PatientCandidate> LISTED = Comparator.comparing(PatientCandidate::display)
            .thenComparing(c -> c.patientNumber() == null ? c.patientKey() : c.patientNumber());

    private final PatientDirectory directory;

    public ScopeResolver(PatientDirectory directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    public ScopeDecision resolve(String question, RetrievalFilter requestFilter, ConversationHistory history) {
        RetrievalFilter filter = requestFilter == null ? RetrievalFilter.NONE : requestFilter;
        if (filter.patient() != null) {
            String key = Words.fold(filter.patient());
            return new ScopeDecision(new PatientScope(Source.REQUEST, filter.patient(), List.of()), filter, null,
                    Words.folded(question).contains(key) ? List.of(key) : List.of());
        }
        NamedPatients.Named named = NamedPatients.in(question, directory.mentionedIn(question));
        List<String> numbers = named.evidence() == NamedPatients.Evidence.NUMBER ? List.copyOf(named.byName().keySet()) : List.of();
        // a corpus without a patient table knows no numbers: there the gate's anchors decide what a number names
        List<String> unknown = directory == PatientDirectory.NONE ? List.of() : NumberMentions.in(question).stream()
                .filter(m -> !numbers.contains(m.folded())).map(NumberMentions.Mention::number).distinct().toList();
        if (!unknown.isEmpty()) {
            return new ScopeDecision(new PatientScope(Source.UNKNOWN, null, List.of()), filter, unknown.size() == 1
                    ? "the question names patient " + unknown.get(0) + ", but no indexed patient has that number"
                    : "the question names patients " + String.join(", ", unknown) + ", but no indexed patient has those numbers");
        }
        if (named.evidence() != NamedPatients.Evidence.NONE) {
            return byName(named, filter, numbers);
        }
        List<RecentTurn> previous = history == null ? List.of() : history.lastTurns(1);
        // a first turn has nothing to refer back to: its pronouns point inside the question ("my mother ... her diet")
        if (!previous.isEmpty() && previous.get(0).wholeSet() && previous.get(0).patientKeys().size() > 1
                && FollowUpCues.refersBackToSet(question)) {
            return inherited(previous.get(0).patientKeys(), filter).overSet(previous.get(0).patientKeys());
        }
        if (!previous.isEmpty() && FollowUpCues.refersBack(question)) {
            return inherited(previous.get(0).patientKeys(), filter);
        }
        return new ScopeDecision(PatientScope.NONE, filter, null);
    }

    private static ScopeDecision byName(NamedPatients.Named named, RetrievalFilter filter, List<String> numbers) {
        List<PatientCandidate> patients = named.patients();
        if (patients.size() == 1) {
            String key = patients.get(0).patientKey();
            return new ScopeDecision(new PatientScope(Source.NAMED, key, List.of()), filter.withPatient(key), null, numbers);
        }
        List<PatientCandidate> shared = named.byName().values().stream().filter(l -> l.size() > 1)
                .flatMap(List::stream).distinct().sorted(LISTED).toList();
        if (shared.isEmpty() && named.evidence() != NamedPatients.Evidence.PART_OF_NAME) {
            // several patients, each named unambiguously: the question is about all of them
            return new ScopeDecision(PatientScope.NONE, filter, null, numbers);
        }
        List<PatientCandidate> listed = shared.isEmpty() ? patients.stream().sorted(LISTED).toList() : shared;
        return ambiguous(listed, filter, listed.size() + " patients match the name in the question: " + list(listed)
                + ". Ask again with the patient's full name or patient number.");
    }

    private ScopeDecision inherited(List<String> previousPatients, RetrievalFilter filter) {
        if (previousPatients.size() == 1) {
            return restricted(Source.INHERITED, previousPatients.get(0), filter);
        }
        if (previousPatients.isEmpty()) {
            return ambiguous(List.of(), filter, "the question refers to a patient, but the conversation so far is not about"
                    + " one patient. Ask again naming the patient or giving the patient number.");
        }
        Map<String, PatientCandidate> known = directory.mentionedIn(String.join(" ", previousPatients)).stream()
                .collect(Collectors.toMap(PatientCandidate::patientKey, c -> c, (a, b) -> a));
        List<PatientCandidate> listed = previousPatients.stream().distinct()
                .map(key -> known.getOrDefault(key, new PatientCandidate(key, key, null, null))).sorted(LISTED).toList();
        return ambiguous(listed, filter, "the previous answer was about " + listed.size() + " patients: " + list(listed)
                + ". Ask again naming one of them or giving the patient number.");
    }

    private static ScopeDecision restricted(Source source, String patientKey, RetrievalFilter filter) {
        return new ScopeDecision(new PatientScope(source, patientKey, List.of()), filter.withPatient(patientKey), null);
    }

    private static ScopeDecision ambiguous(List<PatientCandidate> candidates, RetrievalFilter filter, String why) {
        return new ScopeDecision(new PatientScope(Source.AMBIGUOUS, null, candidates), filter, "Which patient do you mean? "
                + Character.toUpperCase(why.charAt(0)) + why.substring(1));
    }

    private static String list(List<PatientCandidate> candidates) {
        return candidates.stream().map(ScopeResolver::listed).collect(Collectors.joining("; "));
    }

    /** {@code Name (number, born 1961)}; a patient known by number alone: {@code patient 10014078 (born 1961)}. */
    private static String listed(PatientCandidate c) {
        List<String> details = new ArrayList<>();
        if (c.name() != null && c.patientNumber() != null) {
            details.add(c.patientNumber());
        }
        if (c.birthYear() != null) {
            details.add("born " + c.birthYear());
        }
        return c.display() + (details.isEmpty() ? "" : " (" + String.join(", ", details) + ")");
    }
}
