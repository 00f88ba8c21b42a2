package org.chartstream.models.llm;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.chartstream.core.llm.LlmFailureKind;

/**
 * One HTTP exchange seen as a queue of events (status, lines, end, failure) filled by the HTTP client's threads
 * and read by the calling thread under the read timeout and the deadline.
 */
final class ChatExchange implements HttpResponse.BodyHandler<Void>, Flow.Subscriber<String> {
    record Status(int code, String contentType) {
    }

    private record Line(String text) {
    }

    private record Failure(Throwable error) {
    }

    private static final Object END = new Object();

    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private final LlmEndpoint endpoint;
    private final long deadlineNanos;
    private final Duration budget;
    private volatile Flow.Subscription subscription;
    private volatile boolean cancelled;
    private boolean responseStarted;

    ChatExchange(LlmEndpoint endpoint, long deadlineNanos, Duration budget) {
        this.endpoint = endpoint;
        this.deadlineNanos = deadlineNanos;
        this.budget = budget;
    }

    @Override
    public HttpResponse.BodySubscriber<Void> apply(HttpResponse.ResponseInfo info) {
        events.add(new Status(info.statusCode(), info.headers().firstValue("Content-Type").orElse("")));
        return HttpResponse.BodySubscribers.fromLineSubscriber(this);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (cancelled) {
            s.cancel();
        } else {
            s.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(String line) {
        events.add(new Line(line));
    }

    @Override
    public void onError(Throwable error) {
        events.add(new Failure(error));
    }

    @Override
    public void onComplete() {
        events.add(END);
    }

    Status awaitStatus() throws ChatCallFailure {
        Object event = next();
        if (event instanceof Status status) {
            responseStarted = true;
            return status;
        }
        if (event instanceof Failure failure) {
            throw classify(failure.error(), false, endpoint.connectTimeout(), budget);
        }
        throw new ChatCallFailure(LlmFailureKind.MALFORMED, "response body before its status", 0);
    }

    /** The next line of the body, or {@code null} at its end. */
    String nextLine() throws ChatCallFailure {
        Object event = next();
        if (event instanceof Line line) {
            return line.text();
        }
        if (event == END) {
            return null;
        }
        if (event instanceof Failure failure) {
            throw classify(failure.error(), responseStarted, endpoint.connectTimeout(), budget);
        }
        return nextLine();
    }

    private Object next() throws ChatCallFailure {
        long remaining = deadlineNanos - System.nanoTime();
        if (remaining <= 0) {
            throw deadlineExceeded(budget);
        }
        long readTimeout = endpoint.readTimeout().toNanos();
        try {
            Object event = events.poll(Math.min(remaining, readTimeout), TimeUnit.NANOSECONDS);
            if (event != null) {
                return event;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChatCallFailure(LlmFailureKind.TIMEOUT, "interrupted while waiting for the server", 0);
        }
        if (readTimeout < remaining) {
            throw new ChatCallFailure(LlmFailureKind.TIMEOUT, (responseStarted ? "stalled: no data for " : "no response within ")
                    + endpoint.readTimeout().toMillis() + " ms (read timeout)", 0);
        }
        throw deadlineExceeded(budget);
    }

    /** The request failed before or while its response arrived. */
    void fail(Throwable error) {
        events.add(new Failure(error));
    }

    void cancel() {
        cancelled = true;
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }

    private static ChatCallFailure deadlineExceeded(Duration budget) {
        return new ChatCallFailure(LlmFailureKind.TIMEOUT, "deadline of " + budget.toMillis() + " ms exceeded", 0);
    }

    /** @param budget the request's deadline, which is also the HTTP request's timeout */
    private static ChatCallFailure classify(Throwable error, boolean responseStarted, Duration connectTimeout, Duration budget) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof HttpConnectTimeoutException) {
            return new ChatCallFailure(LlmFailureKind.UNAVAILABLE, "connect timed out after " + connectTimeout.toMillis() + " ms", 0);
        }
        if (cause instanceof HttpTimeoutException) {
            // the same failure as the exchange's own deadline check, whichever of the two notices it first
            return deadlineExceeded(budget);
        }
        for (Throwable c = cause; c != null; c = c.getCause()) {
            if (c instanceof ConnectException) {
                return new ChatCallFailure(LlmFailureKind.UNAVAILABLE, "connection refused", 0);
            }
        }
        String what = cause.getClass().getSimpleName();
        if (responseStarted) {
            return new ChatCallFailure(LlmFailureKind.UNAVAILABLE, "connection lost mid-response (" + what + ")", 0);
        }
        return new ChatCallFailure(LlmFailureKind.UNAVAILABLE, cause instanceof IOException
                ? "connection failed (" + what + ")" : "request failed (" + what + ")", 0);
    }
}
