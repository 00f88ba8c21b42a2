package org.chartstream.retrieval.scope;

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
 *   <li>a question naming one patient (patient number, full name, or a name only one patient has) is restricted to
 *       that patient ({@link Source#NAMED}); a name several patients share gets a clarification listing them
 *       ({@link Source#AMBIGUOUS}); a question naming several different patients is not restricted;</li>
 *   <li>a question naming nobody that refers back ({@link FollowUpCues}) inherits the previous turn's patient
 *       ({@link Source#INHERITED}); when that turn was about several patients or none, it gets a clarification;</li>
 *   <li>anything else is not restricted ({@link Source#NONE}).</li>
 * </ol>
 */
public final class ScopeResolver {
    private static final Comparator<PatientCandidate> LISTED = Comparator.comparing(PatientCandidate::name)
            .thenComparing(c -> c.patientNumber() == null ? c.patientKey() : c.patientNumber());

    private final PatientDirectory directory;

    public ScopeResolver(PatientDirectory directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    public ScopeDecision resolve(String question, RetrievalFilter requestFilter, ConversationHistory history) {
        RetrievalFilter filter = requestFilter == null ? RetrievalFilter.NONE : requestFilter;
        if (filter.patient() != null) {
            return new ScopeDecision(new PatientScope(Source.REQUEST, filter.patient(), List.of()), filter, null);
        }
        NamedPatients.Named named = NamedPatients.in(question, directory.mentionedIn(question));
        if (named.evidence() != NamedPatients.Evidence.NONE) {
            return byName(named, filter);
        }
        List<RecentTurn> previous = history == null ? List.of() : history.lastTurns(1);
        // a first turn has nothing to refer back to: its pronouns point inside the question ("my mother ... her diet")
        if (!previous.isEmpty() && FollowUpCues.refersBack(question)) {
            return inherited(previous.get(0).patientKeys(), filter);
        }
        return new ScopeDecision(PatientScope.NONE, filter, null);
    }

    private static ScopeDecision byName(NamedPatients.Named named, RetrievalFilter filter) {
        List<PatientCandidate> patients = named.patients();
        if (patients.size() == 1) {
            return restricted(Source.NAMED, patients.get(0).patientKey(), filter);
        }
        List<PatientCandidate> shared = named.byName().values().stream().filter(l -> l.size() > 1)
                .flatMap(List::stream).distinct().sorted(LISTED).toList();
        if (shared.isEmpty() && named.evidence() != NamedPatients.Evidence.PART_OF_NAME) {
            // several patients, each named unambiguously: the question is about all of them
            return new ScopeDecision(PatientScope.NONE, filter, null);
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
        return candidates.stream().map(c -> c.name()
                + (c.patientNumber() == null && c.birthYear() == null ? "" : " ("
                + (c.patientNumber() == null ? "" : c.patientNumber()) + (c.patientNumber() != null && c.birthYear() != null ? ", " : "")
                + (c.birthYear() == null ? "" : "born " + c.birthYear()) + ")"))
                .collect(Collectors.joining("; "));
    }
}
