package org.chartstream.query.scope;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.chartstream.core.llm.ScriptedChatModel;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.PatientLabel;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.core.store.RowRef;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.core.store.TableRef;
import org.chartstream.models.ModelDescriptor;
import org.chartstream.models.OnnxEmbedder;
import org.chartstream.models.OnnxRuntimeGuard;
import org.chartstream.models.rerank.BiEncoderReranker;
import org.chartstream.retrieval.Outcome;
import org.chartstream.retrieval.PatientScope;
import org.chartstream.retrieval.PatientScope.PatientCandidate;
import org.chartstream.retrieval.QueryPipeline;
import org.chartstream.retrieval.RetrievalTrace;
import org.chartstream.retrieval.QuerySettings;
import org.chartstream.retrieval.SearchMode;
import org.chartstream.retrieval.StandardStages;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.chartstream.retrieval.generate.Passage;
import org.chartstream.retrieval.rewrite.ConversationHistory;
import org.chartstream.retrieval.rewrite.LlmQueryRewriter;
import org.chartstream.retrieval.rewrite.RecentTurn;
import org.chartstream.retrieval.rewrite.RewriteSettings;
import org.chartstream.retrieval.scope.TurnPatients;
import org.chartstream.retrieval.search.SearchIndex;
import org.chartstream.store.lucene.LuceneHybridStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The patient scope over the real Lucene store and ONNX model: the directory read from the index, and whole runs. */
class ScopedPipelineTest {
    static final String[][] ROWS = {
            {"patients", "p7", "MRN-7", "record: patients\npatient: Elizabeth Ross (MRN-7)\npatient no: MRN-7\nfirst name: Elizabeth\nlast name: Ross\nbirth date: 1961-03-02\ngender: female"},
            {"patients", "p12", "MRN-12", "record: patients\npatient: Sophia Jackson (MRN-12)\npatient no: MRN-12\nfirst name: Sophia\nlast name: Jackson\nbirth date: 1980-05-09\ngender: female"},
            {"patients", "p31", "MRN-31", "record: patients\npatient: Sophia Brown (MRN-31)\npatient no: MRN-31\nfirst name: Sophia\nlast name: Brown\nbirth date: 1975-11-23\ngender: female"},
            {"conditions", "c1", "MRN-7", "record: conditions\npatient: Elizabeth Ross (MRN-7)\nicd10 code: I10\ndescription: Essential hypertension"},
            {"medications", "m1", "MRN-7", "record: medications\npatient: Elizabeth Ross (MRN-7)\ndescription: lisinopril 10 MG Oral Tablet"},
            {"medications", "m2", "MRN-12", "record: medications\npatient: Sophia Jackson (MRN-12)\ndescription: lisinopril 20 MG Oral Tablet"},
            {"medications", "m3", "MRN-31", "record: medications\npatient: Sophia Brown (MRN-31)\ndescription: metformin hydrochloride 500 MG Oral Tablet"},
            {"clinical_notes", "n1", "MRN-12", "record: clinical notes\npatient: Sophia Jackson (MRN-12)\nchief complaint: medication review\nnote text: Her medications were reviewed; she takes lisinopril daily."},
            {"clinical_notes", "n2", "MRN-31", "record: clinical notes\npatient: Sophia Brown (MRN-31)\nchief complaint: medication review\nnote text: Her medications were reviewed; metformin continued."},
            // a patient table without name columns: the number is the patient's display, in the header and the label
            {"patients", "s32", "10000032", "record: patients\npatient: 10000032\ngender: F\nanchor age: 52"},
            {"patients", "s84", "10000084", "record: patients\npatient: 10000084\ngender: M\nanchor age: 72"},
            {"prescriptions", "rx1", "10000032", "record: prescriptions\npatient: 10000032\ndrug: Furosemide\nroute: PO"},
            {"prescriptions", "rx2", "10000084", "record: prescriptions\npatient: 10000084\ndrug: Vancomycin\nroute: IV"},
            {"prescriptions", "rx3", "10000084", "record: prescriptions\npatient: 10000084\ndrug: Furosemide\nroute: IV"},
    };

    @TempDir
    static Path dir;
    static OnnxEmbedder model;
    static LuceneHybridStore store;
    static ExecutorService search;

    @BeforeAll
    static void open() {
        OnnxRuntimeGuard.shortenInformationalClassPathProperties();
        model = OnnxEmbedder.load(ModelDescriptor.ALL_MINILM_L6_V2, 2);
        store = LuceneHybridStore.open(dir.resolve("index"));
        search = Executors.newFixedThreadPool(2);
        for (String[] r : ROWS) {
            write(r[0], r[1], r[2], TestPatients.label(r[0], r[2]), r[3]);
        }
        for (String table : List.of("patients", "conditions", "medications", "clinical_notes", "prescriptions")) {
            store.publish(new TableRef("ehr", table), 1);
        }
        store.commit(Map.of());
    }

    static void write(String table, String key, String patient, PatientLabel label, String text) {
        StoredChunk chunk = ChunkFixture.of("ehr", table, key).text(text).vector(model.embedPassages(List.of(text))[0])
                .model(model.modelId()).patient(patient).label(label).source("lsn:1", 1L).build();
        store.upsertRow(chunk.row(), chunk.generation(), List.of(chunk));
    }

    @AfterAll
    static void close() {
        search.shutdownNow();
        store.close();
        model.close();
    }

    static QueryPipeline pipeline(QueryPipeline.Stages stages) {
        return new QueryPipeline(stages, QuerySettings.defaults());
    }

    static QueryPipeline.Stages standard() {
        return StandardStages.of(QueryEmbedder.of(model), SearchIndex.of(store), search, QuerySettings.defaults(), new BiEncoderReranker(model),
                model.tokenizer()::countTokens, null, new IndexedPatientDirectory(store, "patients"));
    }

    static ConversationHistory after(QueryPipeline.Result turn, String question) {
        return new ConversationHistory("", List.of(new RecentTurn(question, turn.answer().text(),
                TurnPatients.of(turn.scope(), turn.answer().passages()))));
    }

    static RetrievalTrace.Ranked ranked(QueryPipeline.Result r) {
        return (RetrievalTrace.Ranked) r.trace();
    }

    static List<String> citedPatients(QueryPipeline.Result r) {
        return r.answer().passages().stream().map(Passage::chunk).map(StoredChunk::patientKey).distinct().toList();
    }

    @Test
    void theDirectoryReadsNameNumberAndBirthYearFromThePatientRowsFoldingAccents() {
        IndexedPatientDirectory directory = new IndexedPatientDirectory(store, "patients");

        assertThat(directory.mentionedIn("What brought Elizabéth Róss in?"))
                .contains(new PatientCandidate("MRN-7", "Elizabeth Ross", "MRN-7", 1961));
        assertThat(directory.mentionedIn("Sophia")).extracting(PatientCandidate::patientKey).containsExactlyInAnyOrder("MRN-12", "MRN-31");
        assertThat(directory.mentionedIn("   ")).isEmpty();
    }

    @Test
    void theDirectoryFollowsUpdatesAndDeletesOfThePatientTable() {
        IndexedPatientDirectory directory = new IndexedPatientDirectory(store, "patients");
        write("patients", "p99", "MRN-99", new PatientLabel("MRN-99", "Grace Hollis", 1990),
                "record: patients\npatient: Grace Hollis (MRN-99)\npatient no: MRN-99\nbirth date: 1990-01-01");
        store.commit(Map.of());
        assertThat(directory.mentionedIn("Grace Hollis")).extracting(PatientCandidate::name).containsExactly("Grace Hollis");

        write("patients", "p99", "MRN-99", new PatientLabel("MRN-99", "Grace Hollis-Reed", 1990),
                "record: patients\npatient: Grace Hollis-Reed (MRN-99)\npatient no: MRN-99\nbirth date: 1990-01-01");
        store.commit(Map.of());
        assertThat(directory.mentionedIn("Grace")).extracting(PatientCandidate::name).containsExactly("Grace Hollis-Reed");

        store.deleteRow(new RowRef("ehr", "patients", "p99"));
        store.commit(Map.of());
        assertThat(directory.mentionedIn("Grace Hollis-Reed")).isEmpty();
    }

    @Test
    void theDirectoryReadsThePatientFromTheChunksLabelNeverFromTheirText() {
        IndexedPatientDirectory directory = new IndexedPatientDirectory(store, "patients");
        write("patients", "p55", "MRN-55", new PatientLabel("MRN-55", "Harriet Vane", 1950),
                "record: patients\npatient no: MRN-55\nbirth date: 1950-02-02");
        write("patients", "p56", "MRN-56", new PatientLabel("MRN-56", "Peter Wimsey", 1940),
                "record: patients\npatient: Imogen Quest (MRN-77)\nbirth date: 1890-01-01");
        write("patients", "p57", "MRN-57", null, "record: patients\npatient: Oliver Twist (MRN-57)\nbirth date: 1837-01-01");
        store.commit(Map.of());

        assertThat(directory.mentionedIn("Oliver Twist MRN-57")).as("a chunk written before chunks carried labels").isEmpty();
        assertThat(directory.mentionedIn("What did Harriet Vane take?"))
                .containsExactly(new PatientCandidate("MRN-55", "Harriet Vane", "MRN-55", 1950));
        assertThat(directory.mentionedIn("Peter Wimsey")).containsExactly(new PatientCandidate("MRN-56", "Peter Wimsey", "MRN-56", 1940));
        assertThat(directory.mentionedIn("Imogen Quest MRN-77")).as("the text's header names nobody").isEmpty();

        store.deleteRow(new RowRef("ehr", "patients", "p55"));
        store.deleteRow(new RowRef("ehr", "patients", "p56"));
        store.deleteRow(new RowRef("ehr", "patients", "p57"));
        store.commit(Map.of());
    }

    @Test
    void aFollowUpInheritsThePreviousTurnsPatientAndCitesNoOtherPatient() {
        QueryPipeline pipeline = pipeline(standard());
        String first = "What conditions does Elizabeth Ross have?";
        QueryPipeline.Result one = pipeline.run(first, SearchMode.HYBRID, 5, RetrievalFilter.NONE);
        assertThat(one.scope().source()).isEqualTo(PatientScope.Source.NAMED);
        assertThat(citedPatients(one)).containsExactly("MRN-7");

        QueryPipeline.Result two = pipeline.run("What about her medications?", SearchMode.HYBRID, 5, RetrievalFilter.NONE,
                after(one, first), QueryPipeline.Listener.NONE);

        assertThat(two.answer().outcome()).isEqualTo(Outcome.ANSWER);
        assertThat(two.scope()).isEqualTo(new PatientScope(PatientScope.Source.INHERITED, "MRN-7", List.of()));
        assertThat(citedPatients(two)).containsExactly("MRN-7");
        assertThat(ranked(two).fused()).allSatisfy(c -> assertThat(c.chunk().patientKey()).isEqualTo("MRN-7"));
        assertThat(two.answer().passages()).extracting(p -> p.chunk().row().rowKey()).contains("m1");
    }

    @Test
    void aNameTwoPatientsShareGetsAClarificationAndNothingIsSearched() {
        QueryPipeline.Result r = pipeline(standard()).run("What medications does Sophia take?", SearchMode.HYBRID, 5, RetrievalFilter.NONE);

        assertThat(r.answer().outcome()).isEqualTo(Outcome.CLARIFY);
        assertThat(r.answer().passages()).isEmpty();
        assertThat(r.trace()).isInstanceOf(RetrievalTrace.Clarified.class);
        assertThat(r.scope().candidates()).containsExactly(new PatientCandidate("MRN-31", "Sophia Brown", "MRN-31", 1975),
                new PatientCandidate("MRN-12", "Sophia Jackson", "MRN-12", 1980));
        assertThat(r.answer().text()).contains("Sophia Brown (MRN-31, born 1975)", "Sophia Jackson (MRN-12, born 1980)");
        assertThat(r.answer().completeness()).isEmpty();
    }

    @Test
    void aFollowUpAfterAnAnswerAboutSeveralPatientsAsksWhichOfThem() {
        QueryPipeline pipeline = pipeline(standard());
        String first = "Which patients take lisinopril?";
        QueryPipeline.Result one = pipeline.run(first, SearchMode.HYBRID, 5, RetrievalFilter.NONE);
        assertThat(citedPatients(one)).hasSizeGreaterThan(1);

        QueryPipeline.Result two = pipeline.run("What about her conditions?", SearchMode.HYBRID, 5, RetrievalFilter.NONE,
                after(one, first), QueryPipeline.Listener.NONE);

        assertThat(two.answer().outcome()).isEqualTo(Outcome.CLARIFY);
        assertThat(two.scope().candidates()).extracting(PatientCandidate::patientKey)
                .containsExactlyInAnyOrderElementsOf(citedPatients(one));
    }

    @Test
    void anLlmRewriteNamingAnotherPatientStaysWithinTheInheritedScope() {
        // the scripted model resolves "her" to the wrong patient: the inherited filter still holds
        ScriptedChatModel llm = new ScriptedChatModel(ScriptedChatModel.completed(
                "{\"standalone\": \"What medications does Sophia Brown take?\", \"alternatives\": []}"));
        QueryPipeline.Stages standard = standard();
        QueryPipeline pipeline = pipeline(new QueryPipeline.Stages(new LlmQueryRewriter(llm, RewriteSettings.defaults()),
                standard.embedder(), standard.searcher(), standard.reranker(), standard.gate(), standard.context(),
                standard.generator(), standard.cohort(), standard.patients()));
        ConversationHistory history = new ConversationHistory("", List.of(new RecentTurn(
                "What conditions does Elizabeth Ross have?", "Essential hypertension [1]", List.of("MRN-7"))));

        QueryPipeline.Result r = pipeline.run("What about her medications?", SearchMode.HYBRID, 5, RetrievalFilter.NONE, history,
                QueryPipeline.Listener.NONE);

        assertThat(llm.requests()).isNotEmpty();
        assertThat(ranked(r).variants()).contains("What medications does Sophia Brown take?");
        assertThat(r.scope().source()).isEqualTo(PatientScope.Source.INHERITED);
        assertThat(ranked(r).fused()).isNotEmpty().allSatisfy(c -> assertThat(c.chunk().patientKey()).isEqualTo("MRN-7"));
        assertThat(citedPatients(r)).containsExactly("MRN-7");
    }

    @Test
    void theDirectoryFindsAPatientKnownByNumberAlone() {
        IndexedPatientDirectory directory = new IndexedPatientDirectory(store, "patients");

        assertThat(directory.mentionedIn("What is the gender of patient 10000032?"))
                .containsExactly(new PatientCandidate("10000032", null, "10000032", null));
    }

    @Test
    void aQuestionNamingAPatientByNumberIsScopedToThatPatientAsAFullNameIs() {
        QueryPipeline pipeline = pipeline(standard());
        for (String question : List.of("What is the gender of patient 10000084?", "What is the gender of pt 10000084?",
                "What is the gender of subject 10000084?", "Gender of #10000084?", "What is the gender of patient no. 10000084?",
                "Is patient number 10000084 male or female?", "What is the gender of 10000084?")) {
            QueryPipeline.Result r = pipeline.run(question, SearchMode.HYBRID, 5, RetrievalFilter.NONE);

            assertThat(r.scope()).as(question).isEqualTo(new PatientScope(PatientScope.Source.NAMED, "10000084", List.of()));
            assertThat(r.answer().outcome()).as(question + " " + r.answer().text()).isEqualTo(Outcome.ANSWER);
            assertThat(citedPatients(r)).as(question).containsExactly("10000084");
            assertThat(ranked(r).fused()).as(question).allSatisfy(c -> assertThat(c.chunk().patientKey()).isEqualTo("10000084"));
        }
    }

    @Test
    void aPatientsMedicationsAskedByNumberAreTheirPrescriptionsNotACohortOfTheNumber() {
        QueryPipeline pipeline = pipeline(standard());
        for (String question : List.of("What medications was patient 10000084 prescribed?", "List every drug ordered for 10000084.")) {
            QueryPipeline.Result r = pipeline.run(question, SearchMode.HYBRID, 5, RetrievalFilter.NONE);

            assertThat(r.trace()).as(question).isInstanceOf(RetrievalTrace.Ranked.class);
            assertThat(r.answer().outcome()).as(question).isEqualTo(Outcome.ANSWER);
            assertThat(citedPatients(r)).as(question).containsExactly("10000084");
            assertThat(r.answer().passages()).as(question).extracting(p -> p.chunk().row().rowKey()).contains("rx2", "rx3");
            assertThat(r.answer().text()).as(question).contains("patient 10000084:").doesNotContain("without a patient");
        }
    }

    @Test
    void aNumberNoIndexedPatientHasIsRefusedNamingItAndNothingIsSearched() {
        QueryPipeline.Result r = pipeline(standard()).run("What is the gender of patient 10099999?", SearchMode.HYBRID, 5,
                RetrievalFilter.NONE);

        assertThat(r.answer().outcome()).isEqualTo(Outcome.REFUSED);
        assertThat(r.answer().text()).contains("patient 10099999", "no indexed patient has that number");
        assertThat(r.answer().passages()).isEmpty();
        assertThat(r.scope().source()).isEqualTo(PatientScope.Source.UNKNOWN);
        assertThat(r.trace()).isNotInstanceOf(RetrievalTrace.Ranked.class);
    }

    @Test
    void aFollowUpKeepsThePatientTheFirstTurnNamedByNumber() {
        QueryPipeline pipeline = pipeline(standard());
        String first = "What is the gender of patient 10000032?";
        QueryPipeline.Result one = pipeline.run(first, SearchMode.HYBRID, 5, RetrievalFilter.NONE);
        assertThat(citedPatients(one)).containsExactly("10000032");

        QueryPipeline.Result two = pipeline.run("What about her prescriptions?", SearchMode.HYBRID, 5, RetrievalFilter.NONE,
                after(one, first), QueryPipeline.Listener.NONE);

        assertThat(two.scope()).isEqualTo(new PatientScope(PatientScope.Source.INHERITED, "10000032", List.of()));
        assertThat(citedPatients(two)).containsExactly("10000032");
        assertThat(two.answer().passages()).extracting(p -> p.chunk().row().rowKey()).contains("rx1");
    }

    @Test
    void aCohortNamesAPatientKnownByNumberAlone() {
        QueryPipeline.Result r = pipeline(standard()).run("Which patients were prescribed vancomycin?", SearchMode.HYBRID, 5,
                RetrievalFilter.NONE);

        assertThat(r.trace()).isInstanceOf(RetrievalTrace.Cohort.class);
        assertThat(r.answer().text()).contains("patient 10000084").doesNotContain("without a patient");
    }
}
