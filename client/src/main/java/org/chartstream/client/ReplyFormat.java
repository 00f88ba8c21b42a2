package org.chartstream.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import org.chartstream.schemas.Citation;
import org.chartstream.schemas.CohortSummary;
import org.chartstream.schemas.ReplyEvent;
import org.chartstream.schemas.SetResult;
import org.chartstream.schemas.SetValue;

/** Renders a reply for people (text) or machines (one JSON object per question). */
public final class ReplyFormat {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ReplyFormat() {
    }

    public static ReplyEvent finalEvent(List<ReplyEvent> events) {
        return events.get(events.size() - 1);
    }

    public static String kind(ReplyEvent e) {
        return e.getType().name().toLowerCase(Locale.ROOT);
    }

    public static String json(String question, List<ReplyEvent> events) {
        ReplyEvent last = finalEvent(events);
        ObjectNode o = JSON.createObjectNode();
        o.put("question", question);
        o.put("kind", kind(last));
        o.put("answer", last.getText() != null ? last.getText() : last.getError());
        o.put("extractive", last.getExtractive());
        ArrayNode citations = o.putArray("citations");
        for (Citation c : last.getCitations()) {
            ObjectNode n = citations.addObject();
            n.put("index", c.getIndex());
            n.put("source", c.getSourceId());
            n.put("table", c.getTableName());
            n.put("row_key", c.getRowKey());
            n.put("generation", c.getGeneration());
            n.put("chunk_id", c.getChunkId());
            n.put("source_position", c.getSourcePosition());
            n.put("score", c.getScore());
        }
        if (!last.getCandidates().isEmpty()) {
            ArrayNode candidates = o.putArray("candidates");
            last.getCandidates().forEach(c -> candidates.addObject().put("name", c.getName())
                    .put("patient_number", c.getPatientNumber()).put("birth_year", c.getBirthYear()));
        }
        if (last.getCompleteness() != null) {
            o.put("completeness", last.getCompleteness().name().toLowerCase(Locale.ROOT));
            o.put("completeness_reason", last.getCompletenessReason());
        }
        if (last.getCohort() != null) {
            CohortSummary c = last.getCohort();
            o.putObject("cohort").put("anchor", c.getAnchor()).put("patients", c.getPatients()).put("rows", c.getRows())
                    .put("cap", c.getCap());
        }
        if (last.getSetResult() != null) {
            set(o.putObject("set"), last.getSetResult());
        }
        return o.toString();
    }

    /** A whole-set answer's structured result: what was counted, the exact counts and what was listed. */
    private static void set(ObjectNode o, SetResult set) {
        o.put("output", set.getOutput().name().toLowerCase(Locale.ROOT));
        o.put("field", set.getField());
        o.put("rows", set.getRows());
        o.put("patients", set.getPatients());
        set.getPatientsListed().forEach(o.putArray("patients_listed")::add);
        ArrayNode values = o.putArray("values");
        for (SetValue v : set.getValues()) {
            values.addObject().put("value", v.getValue()).put("rows", v.getRows()).put("patients", v.getPatients());
        }
        set.getRowIds().forEach(o.putArray("row_ids")::add);
        set.getConcepts().forEach(o.putArray("concepts")::add);
        o.put("complete", set.getComplete());
        o.put("lists_cut", set.getListsCut());
    }

    public static String text(String question, List<ReplyEvent> events) {
        ReplyEvent last = finalEvent(events);
        StringBuilder out = new StringBuilder();
        out.append("Q: ").append(question).append('\n');
        out.append("-> ").append(kind(last).toUpperCase(Locale.ROOT));
        if (last.getExtractive()) {
            out.append(" (extractive)");
        }
        out.append('\n');
        out.append(last.getText() != null ? last.getText() : "error: " + last.getError()).append('\n');
        if (!last.getCitations().isEmpty()) {
            out.append("citations:\n");
            for (Citation c : last.getCitations()) {
                out.append(String.format("  [%d] source=%s table=%s row=%s generation=%d position=%s%n",
                        c.getIndex(), c.getSourceId(), c.getTableName(), c.getRowKey(), c.getGeneration(), c.getSourcePosition()));
            }
        }
        return out.toString();
    }
}
