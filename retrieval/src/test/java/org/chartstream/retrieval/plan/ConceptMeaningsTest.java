package org.chartstream.retrieval.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chartstream.core.store.RetrievalFilter;
import org.chartstream.retrieval.Completeness;
import org.chartstream.retrieval.embed.QueryEmbedder;
import org.junit.jupiter.api.Test;

/** Concepts linked by meaning when no value holds the phrase's words: above the threshold only, and never complete. */
class ConceptMeaningsTest {
    /** Meanings as two-dimensional vectors: kidney failure along x, hypertension along y, anything else between. */
    private static final Map<String, float[]> VECTORS = Map.of(
            "acute kidney injury", new float[] {1, 0.1f},
            "Acute kidney failure, unspecified", new float[] {1, 0},
            "Hypertensive heart disease with heart failure", new float[] {0.5f, 1},
            "Essential (primary) hypertension", new float[] {0, 1},
            "Unspecified essential hypertension", new float[] {0, 1},
            "blood pressure", new float[] {0.6f, 1});

    private final List<String> embedded = new ArrayList<>();
    private final QueryEmbedder embedder = new QueryEmbedder() {
        @Override
        public String modelId() {
            return "test-model";
        }

        @Override
        public float[][] embedQueries(List<String> texts) {
            embedded.addAll(texts);
            return texts.stream().map(t -> VECTORS.getOrDefault(t, new float[] {0.7f, 0.7f})).toArray(float[][]::new);
        }
    };

    @Test
    void theValuesAboveTheThresholdAreLinkedAndEachValueIsEmbeddedOnce() {
        ConceptMeanings meanings = ConceptMeanings.withThreshold(embedder, 0.95);
        List<String> vocabulary = List.of("Acute kidney failure, unspecified", "Essential (primary) hypertension");
        assertThat(meanings.near("acute kidney injury", vocabulary)).containsExactly("Acute kidney failure, unspecified");
        assertThat(meanings.near("blood pressure", vocabulary)).as("0.86 is below 0.95").isEmpty();
        assertThat(embedded).containsExactly("Acute kidney failure, unspecified", "Essential (primary) hypertension",
                "acute kidney injury", "blood pressure");
    }

    @Test
    void aModelWithoutAMeasuredThresholdLinksByWordsOnly() {
        assertThat(ConceptMeanings.of(embedder)).isNull();
        assertThat(ConceptMeanings.THRESHOLDS).containsKey("all-minilm-l6-v2-q");
    }

    @Test
    void aSetOfConceptsLinkedByMeaningIsAnsweredAsPartialNamingThem() {
        RowSetIndex index = Hospital.rows().row("diagnoses_icd", "d11", "10000005", "icd_code", "5849", "icd_version", "9",
                "diagnosis", "Acute kidney failure, unspecified");
        WholeSets sets = new WholeSets(index, new SetPlanner(Map.of(RowSetIndex.SOURCE, Hospital.binding()), index::indexedTables,
                new ConceptVocabulary(index), new ConceptLinker(DrugClasses.standard(), DrugBrands.standard(),
                        ConceptMeanings.withThreshold(embedder, 0.95)),
                key -> List.of()), new SetExecutor(index, 500, 600));
        SetDecision decision = sets.plan("Which patients had acute kidney injury?", RetrievalFilter.NONE, List.of(), List.of());
        SetAnswer answer = sets.execute(((SetDecision.Planned) decision).plan());
        assertThat(answer.set().patientsListed()).containsExactly("10000005");
        assertThat(answer.completeness().kind()).isEqualTo(Completeness.Kind.PARTIAL);
        assertThat(answer.completeness().reason()).contains("nearest in meaning");
        assertThat(answer.set().complete()).isFalse();
        assertThat(answer.set().patientKeys()).as("not a whole set to follow up on").isEmpty();
        assertThat(answer.text()).startsWith("Partial").contains("Acute kidney failure, unspecified");
    }
}
