#!/usr/bin/env python3
"""Usage: .ci/doc-names.py . docs/ARCHITECTURE.md [more.md]. Every backticked CamelCase name in a doc must name a
.java file of the repo, a type nested in one, or an Avro record/enum of schemas/src/main/avro; names of outside
libraries are listed in EXTERNAL. Prints what is missing; exit status 1 if anything is."""
import json, os, re, sys

EXTERNAL = {  # not project classes: where they come from
    'BaseKnnVectorsFormatTestCase': 'Lucene test framework',
    'KnnFloatVectorField': 'Lucene',
    'KnnFloatVectorQuery': 'Lucene',
    'Lucene99HnswVectorsFormat': 'Lucene',
    'NumberLong': 'MongoDB extended JSON',
    'BinlogStreamingChangeEventSource': 'Debezium',
    'RecordTooLargeException': 'Kafka clients',
    'IllegalArgumentException': 'JDK',
    'ThreadPriorityPolicy': 'JVM flag -XX:ThreadPriorityPolicy',
    'TieredStopAtLevel': 'JVM flag -XX:TieredStopAtLevel',
    'KafkaStreamsMetrics': 'Micrometer',
    'KafkaClientMetrics': 'Micrometer',
    'OrtEnvironment': 'ONNX Runtime',
    'Lucene104HnswScalarQuantizedVectorsFormat': 'Lucene',
}
PROSE = {'Sophia', 'Miller', 'Martha', 'Collins', 'Dockerfile', 'PostgreSQL', 'MariaDB', 'MySQL', 'DocumentDB'}  # example names, a file, products
root, docs = sys.argv[1], sys.argv[2:]
java = {}
for dp, dn, fn in os.walk(root):
    dn[:] = [d for d in dn if d not in ('target', '.git', 'node_modules')]
    for f in fn:
        if f.endswith('.java'):
            java.setdefault(f[:-5], []).append(os.path.join(dp, f))
avro = set()
def walk(t):
    if isinstance(t, dict):
        if t.get('type') in ('record', 'enum', 'fixed') and 'name' in t:
            avro.add(t['name'])
        for v in t.values(): walk(v)
    elif isinstance(t, list):
        for v in t: walk(v)
adir = os.path.join(root, 'schemas/src/main/avro')
for f in os.listdir(adir):
    walk(json.load(open(os.path.join(adir, f))))
camel = re.compile(r'^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$')
total = 0
for doc in docs:
    missing, seen, checked = [], set(), 0
    text = re.sub(r'^[ \t]*```.*?^[ \t]*```', '', open(doc).read(), flags=re.S | re.M)  # fenced blocks are shell, not names
    for span in re.findall(r'`([^`]+)`', text):
        for tok in re.findall(r'(?<![-\w/])\*?[A-Za-z_][\w.]*(?![-\w])', span):
            parts = [p for p in tok.split('.') if p]
            names = [p for p in parts if camel.match(p.lstrip('*')) ]
            if not names or tok in seen:
                continue
            seen.add(tok)
            top = names[0]
            if len(names) == 1 and not re.search(r'[a-z0-9][A-Z]', top) and not re.fullmatch(r'[\w.*]+', span.strip()):
                continue  # one plain capitalised word inside a longer span: prose or a quoted message, not a name
            checked += 1
            if top.startswith('*'):
                if not any(k.endswith(top[1:]) for k in java):
                    missing.append(tok)
                continue
            if top in EXTERNAL or top in avro or top in PROSE:
                continue
            if top not in java:
                missing.append(tok)
                continue
            src = ''.join(open(p).read() for p in java[top])
            for nested in names[1:]:
                if nested not in java and nested not in avro and not re.search(
                        r'\b(class|record|interface|enum)\s+' + nested + r'\b', src):
                    missing.append(f'{tok} (no type {nested} in {top})')
    for m in missing:
        print(f'{doc}: MISSING {m}')
    print(f'{doc}: {checked} names checked, {len(missing)} missing')
    total += len(missing)
sys.exit(1 if total else 0)
