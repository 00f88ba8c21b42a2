package org.chartstream.datasets;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Finds a folder the repository ships under {@code data/}: below the launcher's repository root
 * ({@value DatasetSpec#HOME_PROPERTY}) first, else below the working directory or one of its parents (so that it also
 * resolves when run from a module folder such as {@code app/}, as the tests are).
 */
final class BundledData {
    private BundledData() {
    }

    /**
     * The first of {@code relatives} (tried in order at each place) that holds {@code marker}, a file or folder that
     * only a complete copy has.
     */
    static Optional<Path> find(List<String> relatives, String marker) {
        String home = System.getProperty(DatasetSpec.HOME_PROPERTY);
        if (home != null) {
            Optional<Path> found = at(Path.of(home), relatives, marker);
            if (found.isPresent()) {
                return found;
            }
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Optional<Path> found = at(p, relatives, marker);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> at(Path base, List<String> relatives, String marker) {
        for (String relative : relatives) {
            Path candidate = base.resolve(relative).toAbsolutePath().normalize();
            if (Files.exists(candidate.resolve(marker))) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
