package org.chartstream.retrieval.generate;

import java.util.ArrayList;
import java.util.List;
import org.chartstream.core.store.ChunkFixture;
import org.chartstream.core.store.StoredChunk;
import org.chartstream.retrieval.context.ContextPassage;

final class TestPassages {
    private TestPassages() {
    }

    static List<ContextPassage> of(String... texts) {
        List<ContextPassage> passages = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            StoredChunk chunk = ChunkFixture.of("clinic", "medications", "m" + i).text(texts[i]).build();
            passages.add(new ContextPassage(i + 1, chunk, List.of(chunk), texts[i], texts[i].split(" ").length, false, 0.9 - i * 0.1));
        }
        return passages;
    }

    static List<ContextPassage> six() {
        return of("record: medications\npatient: Ana Ruiz\nmedication: lisinopril 10 mg daily",
                "record: conditions\npatient: Ana Ruiz\ncondition: essential hypertension (I10)",
                "record: observations\npatient: Ana Ruiz\nblood pressure: 142/91 mmHg",
                "record: encounters\npatient: Ana Ruiz\nreason: follow-up",
                "record: allergies\npatient: Ana Ruiz\nallergy: penicillin",
                "record: notes\npatient: Ana Ruiz\nnote: tolerating medication well");
    }
}
