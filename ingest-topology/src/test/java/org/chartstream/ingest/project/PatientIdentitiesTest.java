package org.chartstream.ingest.project;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PatientIdentitiesTest {
    private static final PatientIdentity MARTHA = new PatientIdentity("p1", "Martha Collins", "MRN-1");
    private PatientIdentities patients;

    @BeforeEach
    void open() {
        patients = PatientIdentityStores.inMemory();
    }

    private List<String> renamedChildren() {
        List<String> rows = new ArrayList<>();
        for (Optional<PatientIdentities.RenamedChild> next = patients.nextRenamedChild(); next.isPresent(); next = patients.nextRenamedChild()) {
            rows.add(next.get().sourceId() + "/" + next.get().patientId() + "/" + next.get().rowStoreKey());
        }
        return rows;
    }

    @Test
    void aChangedNameOrNumberHandsThePatientsChildRowsBackOnceEachInKeyOrder() {
        patients.remember("ehr", MARTHA);
        patients.childMoved("ehr", "ehr:notes:2", null, "p1");
        patients.childMoved("ehr", "ehr:notes:1", null, "p1");
        patients.childMoved("ehr", "ehr:notes:3", null, "p10");

        patients.remember("ehr", new PatientIdentity("p1", "Martha Reed", "MRN-1"));
        assertThat(renamedChildren()).containsExactly("ehr/p1/ehr:notes:1", "ehr/p1/ehr:notes:2");

        patients.remember("ehr", new PatientIdentity("p1", "Martha Reed", "MRN-11"));
        assertThat(renamedChildren()).as("a changed number changes the filter key").hasSize(2);
        assertThat(renamedChildren()).isEmpty();
    }

    @Test
    void aFirstArrivalOrAnUnchangedIdentityHandsNoChildRowBack() {
        patients.childMoved("ehr", "ehr:notes:1", null, "p1");
        patients.remember("ehr", MARTHA);
        patients.remember("ehr", MARTHA);
        assertThat(renamedChildren()).isEmpty();
    }

    @Test
    void aRowMovedToAnotherPatientOrGoneIsNoLongerTheFirstPatientsChild() {
        patients.remember("ehr", MARTHA);
        patients.remember("ehr", new PatientIdentity("p2", "Andrew Perez", "MRN-2"));
        patients.childMoved("ehr", "ehr:notes:1", null, "p1");
        patients.childMoved("ehr", "ehr:notes:2", null, "p1");
        patients.childMoved("ehr", "ehr:notes:1", "p1", "p2");
        patients.childMoved("ehr", "ehr:notes:2", "p1", null);

        patients.remember("ehr", new PatientIdentity("p1", "Martha Reed", "MRN-1"));
        assertThat(renamedChildren()).isEmpty();
        patients.remember("ehr", new PatientIdentity("p2", "Andy Perez", "MRN-2"));
        assertThat(renamedChildren()).containsExactly("ehr/p2/ehr:notes:1");
    }

    @Test
    void aSecondChangeWhileTheFirstIsStillWorkedOffStartsThePatientsRowsOver() {
        patients.remember("ehr", MARTHA);
        patients.childMoved("ehr", "ehr:notes:1", null, "p1");
        patients.childMoved("ehr", "ehr:notes:2", null, "p1");
        patients.remember("ehr", new PatientIdentity("p1", "Martha Reed", "MRN-1"));
        assertThat(patients.nextRenamedChild()).map(PatientIdentities.RenamedChild::rowStoreKey).contains("ehr:notes:1");

        patients.remember("ehr", new PatientIdentity("p1", "Martha Reed-Collins", "MRN-1"));
        assertThat(renamedChildren()).containsExactly("ehr/p1/ehr:notes:1", "ehr/p1/ehr:notes:2");
    }

    @Test
    void aRowThatLeftAPatientNotYetReadNoLongerWaitsForIt() {
        patients.awaitPatient("ehr", "p9", "ehr:notes:1");
        patients.childMoved("ehr", "ehr:notes:1", "p9", "p1");

        assertThat(patients.remember("ehr", new PatientIdentity("p9", "Ida Marwick", "MRN-9"))).isEmpty();
    }
}
