#!/usr/bin/env bash
# Finds the JDK chartstream builds and runs on (Java 21 or newer; developed and measured on 25):
# $JAVA_HOME if new enough, else the java on the PATH if new enough, else the newest JDK >= 21 under /usr/lib/jvm.
# Sourced by ./chartstream and .ci/run (sets JAVA_HOME, puts its bin first on PATH); run directly, it prints the home.
chartstream_min_java=21

# the feature release of the JDK at $1 (e.g. 25), or nothing when $1/bin/java is missing or broken
chartstream_java_feature() {
  [ -x "$1/bin/java" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | sed -n 1p
}

chartstream_jdk_ok() {
  local feature
  feature="$(chartstream_java_feature "$1")"
  [ -n "$feature" ] && [ "$feature" -ge "$chartstream_min_java" ] && [ -x "$1/bin/javac" ]
}

chartstream_find_jdk() {
  local candidate best="" best_feature=0 feature
  if [ -n "${JAVA_HOME:-}" ] && chartstream_jdk_ok "$JAVA_HOME"; then echo "$JAVA_HOME"; return 0; fi
  if command -v java >/dev/null 2>&1; then
    candidate="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
    if chartstream_jdk_ok "$candidate"; then echo "$candidate"; return 0; fi
  fi
  for candidate in /usr/lib/jvm/*/; do
    candidate="${candidate%/}"
    [ -L "$candidate" ] && continue
    chartstream_jdk_ok "$candidate" || continue
    feature="$(chartstream_java_feature "$candidate")"
    if [ "$feature" -gt "$best_feature" ]; then best="$candidate"; best_feature="$feature"; fi
  done
  [ -n "$best" ] && { echo "$best"; return 0; }
  echo "chartstream: needs a JDK $chartstream_min_java or newer (developed on 25); install one (e.g. apt-get install temurin-25-jdk or openjdk-21-jdk) or set JAVA_HOME to it" >&2
  return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  chartstream_find_jdk
else
  JAVA_HOME="$(chartstream_find_jdk)" || exit 1
  export JAVA_HOME
  export PATH="$JAVA_HOME/bin:$PATH"
fi
