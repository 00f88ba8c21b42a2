package org.chartstream.query;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.chartstream.core.store.TableRef;
import org.chartstream.query.admission.AdmissionControl;
import org.chartstream.query.catchup.IndexCatchUp;
import org.chartstream.query.request.RequestIntegrity;
import org.chartstream.retrieval.QueryPipeline;

/**
 * What the query topology serves requests with: the pipeline, the limits on a request, the tables a request's filter
 * may name, the worker threads, the admission bound shared by every task of the instance, the request-id and
 * reply-topic rules, and whether the store replica has caught up with the index log.
 *
 * @param indexedTables the tables the index holds (published), asked only for a filter that names tables or sources
 * @param workers       threads that run the pipeline (the stream thread only validates, admits and delivers)
 * @param catchUp       whether the store replica has caught up (a task holds its runs until it has);
 *                      {@link IndexCatchUp#NONE} over a store that is not a replica
 */
public record QueryServing(QueryPipeline pipeline, QueryTransportSettings transport, Supplier<Set<TableRef>> indexedTables,
                           ExecutorService workers, AdmissionControl admission, RequestIntegrity integrity,
                           IndexCatchUp catchUp) {
    public QueryServing {
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(indexedTables, "indexedTables");
        Objects.requireNonNull(workers, "workers");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(integrity, "integrity");
        Objects.requireNonNull(catchUp, "catchUp");
    }

    public QueryServing withIntegrity(RequestIntegrity rules) {
        return new QueryServing(pipeline, transport, indexedTables, workers, admission, rules, catchUp);
    }

    public QueryServing withCatchUp(IndexCatchUp replica) {
        return new QueryServing(pipeline, transport, indexedTables, workers, admission, integrity, replica);
    }
}
