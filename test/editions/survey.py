#!/usr/bin/env python3
"""survey.py PBJC BUF PROTOBUF OUT [--imports | --source-info]: every editions file of a protobuf checkout, pbjc beside buf.

Not a check (it needs protobuf's tree, which the repository does not carry): the survey issue 28 asks for, run by
hand. For each .proto under PROTOBUF with an `edition = ...` statement, stages it and what it imports (transitively)
into a directory of its own under OUT with a buf.yaml (`version: v2`), then runs

  buf build FILE --as-file-descriptor-set --exclude-imports --exclude-source-info -o buf.binpb
  pbjc -I . --descriptor_set_out=pbjc.binpb -o gen FILE

(with --imports: buf without --exclude-imports, pbjc with --include_imports; with --source-info: buf without
--exclude-source-info, pbjc with --include_source_info, both sets compared in sorted_locations.py's form, decoded
by protoc with /usr/include's descriptor.proto, as descriptor.sh compares them) and sorts each file by verdict:
both accept with the same bytes, both accept with different bytes, both reject, only pbjc rejects, only buf
rejects. An import is staged from PROTOBUF/src/NAME, else the first file whose path ends in /NAME (so a file that
imports descriptor.proto, directly or through cpp_features.proto, gets protobuf's, as both compilers would from
protobuf's include directory; one that does not is read against each compiler's own). Prints one line per file
that is not byte-identical, then the counts.
"""
import os
import re
import shutil
import subprocess
import sys

IMPORT = re.compile(r'^\s*import\s+(?:public\s+|weak\s+|option\s+)?"([^"]+)"\s*;', re.M)
EDITION = re.compile(r'^\s*edition\s*=', re.M)


def protos(top):
    out = []
    for d, _, files in os.walk(top):
        out += [os.path.relpath(os.path.join(d, f), top) for f in files if f.endswith('.proto')]
    return sorted(out)


def finder(top, all_files):
    by_suffix = {}
    for p in all_files:
        parts = p.split('/')
        for i in range(len(parts)):
            by_suffix.setdefault('/'.join(parts[i:]), p)

    def find(name):
        if os.path.isfile(os.path.join(top, 'src', name)):
            return 'src/' + name
        return by_suffix.get(name)
    return find


def read(top, rel):
    with open(os.path.join(top, rel), encoding='utf-8', errors='replace') as f:
        return f.read()


def stage(top, find, rel, name, into):
    """Copies rel as name, then its imports, transitively; missing ones are left to fail."""
    todo, seen = [(rel, name)], set()
    while todo:
        rel, name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        dst = os.path.join(into, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(top, rel), dst)
        for imp in IMPORT.findall(read(top, rel)):
            found = find(imp)
            if found:
                todo.append((found, imp))


def source_info_text(path):
    """The set at path as protoc prints it, its locations in the form sorted_locations.py gives both compilers'."""
    with open(path, 'rb') as f:
        text = subprocess.run(['protoc', '-I', '/usr/include', '--decode=google.protobuf.FileDescriptorSet',
                               'google/protobuf/descriptor.proto'], stdin=f, stdout=subprocess.PIPE, check=True).stdout
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sorted_locations.py')
    return subprocess.run([sys.executable, script], input=text, stdout=subprocess.PIPE, check=True).stdout


def same_sets(d, source_info):
    a, b = os.path.join(d, 'buf.binpb'), os.path.join(d, 'pbjc.binpb')
    if source_info:
        return source_info_text(a) == source_info_text(b)
    with open(a, 'rb') as fa, open(b, 'rb') as fb:
        return fa.read() == fb.read()


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode == 0, p.stdout


def main():
    args = [a for a in sys.argv[1:] if a not in ('--imports', '--source-info')]
    imports = '--imports' in sys.argv[1:]
    source_info = '--source-info' in sys.argv[1:]
    pbjc, buf, top, out = (os.path.abspath(a) for a in args)
    shutil.rmtree(out, ignore_errors=True)
    files = protos(top)
    find = finder(top, files)
    counts = {}
    for i, rel in enumerate(f for f in files if EDITION.search(read(top, f))):
        name = rel[4:] if rel.startswith('src/') else rel
        d = os.path.join(out, str(i))
        stage(top, find, rel, name, d)
        with open(os.path.join(d, 'buf.yaml'), 'w') as f:
            f.write('version: v2\n')
        buf_ok, buf_err = run([buf, 'build', name, '--as-file-descriptor-set', '-o', 'buf.binpb'] +
                              ([] if source_info else ['--exclude-source-info']) +
                              ([] if imports else ['--exclude-imports']), d)
        pbjc_ok, pbjc_err = run([pbjc, '-I', '.', '--descriptor_set_out=pbjc.binpb', '-o', 'gen', name] +
                                (['--include_imports'] if imports else []) +
                                (['--include_source_info'] if source_info else []), d)
        if buf_ok and pbjc_ok:
            verdict = 'same' if same_sets(d, source_info) else 'differ'
        else:
            verdict = {(False, False): 'both-reject', (True, False): 'pbjc-rejects',
                       (False, True): 'buf-rejects'}[(buf_ok, pbjc_ok)]
        counts[verdict] = counts.get(verdict, 0) + 1
        if verdict != 'same':
            first = (pbjc_err if verdict == 'pbjc-rejects' else buf_err).strip().split('\n')[0]
            print('%-12s %s (%s)%s' % (verdict, rel, d, ': ' + first[:200] if verdict != 'differ' else ''))
    print('survey: %d files: %s' % (sum(counts.values()),
                                    ', '.join('%s %d' % (k, counts.get(k, 0)) for k in
                                              ('same', 'differ', 'both-reject', 'pbjc-rejects', 'buf-rejects'))))


if __name__ == '__main__':
    main()
