package org.chartstream.app.audit;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A closed interval of record timestamps, [from, to]. Each end is an ISO-8601 instant
 * ({@code 2026-11-30T18:00:00Z}), {@code now}, or a signed duration relative to now: {@code -90s}, {@code -15m},
 * {@code -1h}, {@code -2d} or ISO-8601 ({@code -PT1H30M}).
 */
public record TimeWindow(Instant from, Instant to) {
    private static final Pattern SHORT_DURATION = Pattern.compile("([+-]?)(\\d+)(ms|s|m|h|d)");

    public TimeWindow {
        if (from.isAfter(to)) {
            throw new IllegalArgumentException("--from (" + from + ") is after --to (" + to + ")");
        }
    }

    /** Parses {@code --from} and {@code --to} (null: now) relative to {@code now}. */
    public static TimeWindow parse(String from, String to, Instant now) {
        if (from == null || from.isBlank()) {
            throw new IllegalArgumentException("--from is required (an instant like 2026-11-30T18:00:00Z or a duration like -1h)");
        }
        return new TimeWindow(instant("--from", from, now), to == null ? now : instant("--to", to, now));
    }

    /** One end of a window: an instant, {@code now}, or a duration added to now. */
    static Instant instant(String option, String text, Instant now) {
        String t = text.trim();
        if (t.equalsIgnoreCase("now")) {
            return now;
        }
        Matcher m = SHORT_DURATION.matcher(t.toLowerCase(Locale.ROOT));
        if (m.matches()) {
            long amount = Long.parseLong(m.group(2));
            Duration d = switch (m.group(3)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
            return m.group(1).equals("+") ? now.plus(d) : now.minus(d);
        }
        try {
            if (t.matches("[+-]?[pP].*")) {
                Duration d = Duration.parse(t.startsWith("+") ? t.substring(1) : t);
                return now.plus(d);
            }
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(option + " '" + text + "' is neither an ISO-8601 instant (2026-11-30T18:00:00Z),"
                    + " 'now', nor a duration such as -1h, -15m, -2d or -PT1H30M");
        }
    }

    public boolean contains(long epochMillis) {
        return epochMillis >= from.toEpochMilli() && epochMillis <= to.toEpochMilli();
    }
}
