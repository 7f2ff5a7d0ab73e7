#!/usr/bin/python3
"""oracle.py: protobuf 4.21's python json_format as the oracle of M_from_json (test/jsonin.mk).

  oracle.py random DESCSET BATCH IN.bin OUT    each item of the Batch in IN.bin printed by MessageToJson (names as
                                               lowerCamelCase and as declared, compact and indented, with and
                                               without default values), with the bytes of json_format.Parse of it
  oracle.py table DESCSET TYPE TABLE OUT       each line of TABLE (a JSON text; '#' lines are comments) with
                                               json_format.Parse's verdict and, when it accepts, the bytes

OUT holds records (4-byte little-endian length, bytes): the JSON, the verdict ('A' accepted, 'R' rejected),
the expected encoding (deterministic: map keys ascending). A TABLE line may start with '!A ' or '!R ': the
verdict pbj gives where python 4.21 differs from protobuf's C++ runtime (the reason in the comment above it);
the oracle checks python still gives the other one (an 'a' verdict: accepted, no bytes to compare).
"""
import struct
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory


FLT_EDGE = 3.4028234e38


def load(descset):
    pool = descriptor_pool.DescriptorPool()
    files = descriptor_pb2.FileDescriptorSet.FromString(open(descset, 'rb').read())
    for f in files.file:
        pool.Add(f)
    return pool, message_factory.MessageFactory(pool)


def record(out, data):
    out.write(struct.pack('<I', len(data)))
    out.write(data)


def parse(pool, cls, text):
    m = cls()
    json_format.Parse(text, m, descriptor_pool=pool)
    return m.SerializeToString(deterministic=True)


def fix(m, pool, factory):
    """Random messages as JSON can print them: Anys of known types, Values with a kind, times in range."""
    name = m.DESCRIPTOR.full_name
    if name == 'google.protobuf.Any':
        d = pool.FindMessageTypeByName('google.protobuf.Duration')
        inner = factory.GetPrototype(d)(seconds=len(m.type_url), nanos=len(m.value))
        m.Pack(inner)
        return
    if name == 'google.protobuf.Value' and not m.WhichOneof('kind'):
        m.null_value = 0
    if name == 'google.protobuf.Timestamp':
        m.seconds = m.seconds % 253402300799
        m.nanos = abs(m.nanos) % 1000000000
    if name == 'google.protobuf.Duration':
        m.seconds = m.seconds % 315576000000
        m.nanos = abs(m.nanos) % 1000000000
    if name == 'google.protobuf.FieldMask':
        del m.paths[:]
        m.paths.extend(['a.b_c', 'foo_bar_baz'][:len(m.paths) % 3])
    for field, value in m.ListFields():
        if field.type == field.TYPE_FLOAT:      # python prints FLT_MAX as 3.4028235e+38, then rejects it as too large
            if field.label == field.LABEL_REPEATED:
                value[:] = [v if abs(v) < FLT_EDGE else 0.5 for v in value]
            elif abs(value) >= FLT_EDGE:
                setattr(m, field.name, 0.5)
        if field.message_type is None:
            continue
        if field.message_type.GetOptions().map_entry:
            v = field.message_type.fields_by_name['value']
            for k in value:
                if v.message_type:
                    fix(value[k], pool, factory)
                elif v.type == v.TYPE_FLOAT and abs(value[k]) >= FLT_EDGE:
                    value[k] = 0.5
        elif field.label == field.LABEL_REPEATED:
            for v in value:
                fix(v, pool, factory)
        else:
            fix(value, pool, factory)


def random_cases(descset, batch, path, outpath):
    pool, factory = load(descset)
    bcls = factory.GetPrototype(pool.FindMessageTypeByName(batch))
    items = bcls.FromString(open(path, 'rb').read()).items
    done = skipped = rejected = 0
    with open(outpath, 'wb') as out:
        for i, item in enumerate(items):
            fix(item, pool, factory)
            cls = type(item)
            try:
                texts = [json_format.MessageToJson(item, preserving_proto_field_name=(i + k) % 2 == 1,
                                                   including_default_value_fields=k == 2,
                                                   indent=None if k else 2, descriptor_pool=pool)
                         for k in range(3)]
            except Exception:          # a value JSON cannot carry (NaN keys and the like): not a case
                skipped += 1
                continue
            for t in texts:
                try:
                    want, verdict = parse(pool, cls, t), b'A'
                except json_format.ParseError:   # python cannot read all it prints: FLT_MAX as 3.4028235e+38
                    want, verdict = b'', b'R'
                    rejected += 1
                record(out, t.encode('utf-8'))
                record(out, verdict)
                record(out, want)
            done += 1
    print('oracle: %d items as JSON (%d skipped: JSON cannot print them; %d texts python does not read back)'
          % (done, skipped, rejected))
    if done < len(items) // 2:
        sys.exit('oracle: fewer than half the items print as JSON')


def table_cases(descset, type_name, table, outpath):
    pool, factory = load(descset)
    cls = factory.GetPrototype(pool.FindMessageTypeByName(type_name))
    n = 0
    with open(outpath, 'wb') as out:
        for line in open(table, encoding='utf-8'):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            differs = line[:3] in ('!A ', '!R ')
            text = line[3:] if differs else line
            try:
                want, verdict = parse(pool, cls, text), b'A'
            except Exception:
                want, verdict = b'', b'R'
            if differs:
                if verdict == line[1:2].encode():
                    sys.exit('oracle: python now agrees with pbj on %r: drop its "!"' % line)
                verdict = b'a' if line[1] == 'A' else b'R'   # 'a': accepted, no bytes to compare
            record(out, text.encode('utf-8'))
            record(out, verdict)
            record(out, want)
            n += 1
    print('oracle: %d table lines' % n)


if __name__ == '__main__':
    if sys.argv[1] == 'random':
        random_cases(*sys.argv[2:6])
    else:
        table_cases(*sys.argv[2:6])
