#!/usr/bin/python3
"""test/json/ext.py: random items of test/json/schemas/ext.proto (proto2 extensions of every shape) for check-json-ext.

  ext.py gen DESCSET COUNT SEED OUT.bin      a parity.ext.Batch of COUNT random Items, fields and extensions set at random
  ext.py cases DESCSET IN.bin OUT            each item as python's json_format writes it (names both ways, compact and
                                             indented, with defaults) in test/jsonin/driver.c's records: the JSON, the
                                             verdict 'A', the bytes json_format.Parse makes of it

python 4.21 writes a repeated extension under its json_name instead of "[pkg.ext]" (and cannot read either back);
fixed_keys() renames those keys, and such an item's expected bytes are the item's own (its JSON without defaults).
"""
import json
import random
import struct
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory

F = descriptor_pb2.FieldDescriptorProto


def load(descset):
    """The files' pool and a factory knowing every message type (else python's C++ backend leaves an extension
    of a type not made yet among the unknown fields)."""
    pool = descriptor_pool.DescriptorPool()
    files = descriptor_pb2.FileDescriptorSet.FromString(open(descset, 'rb').read()).file
    for f in files:
        pool.Add(f)
    factory = message_factory.MessageFactory(pool)

    def make(d):
        factory.GetPrototype(d)
        for n in d.nested_types:
            make(n)
    for f in files:
        for d in pool.FindFileByName(f.name).message_types_by_name.values():
            make(d)
    return pool, factory


def scalar(rng, fd):
    t = fd.type
    if t in (F.TYPE_INT32, F.TYPE_SINT32, F.TYPE_SFIXED32):
        return rng.choice([0, 1, -1, 2**31 - 1, -2**31, rng.randint(-2**31, 2**31 - 1)])
    if t in (F.TYPE_INT64, F.TYPE_SINT64, F.TYPE_SFIXED64):
        return rng.choice([0, -1, 2**63 - 1, -2**63, rng.randint(-2**63, 2**63 - 1)])
    if t in (F.TYPE_UINT32, F.TYPE_FIXED32):
        return rng.choice([0, 2**32 - 1, rng.randint(0, 2**32 - 1)])
    if t in (F.TYPE_UINT64, F.TYPE_FIXED64):
        return rng.choice([0, 2**64 - 1, rng.randint(0, 2**64 - 1)])
    if t == F.TYPE_DOUBLE:
        return rng.choice([0.0, -0.5, 1e300, float('inf'), float('nan'), rng.uniform(-1e9, 1e9)])
    if t == F.TYPE_FLOAT:
        return struct.unpack('f', struct.pack('f', rng.choice([0.0, 0.25, -3.5, float('-inf'), rng.uniform(-1e6, 1e6)])))[0]
    if t == F.TYPE_BOOL:
        return rng.random() < 0.5
    if t == F.TYPE_STRING:
        return ''.join(rng.choice('ab"\\\n\t\x01é€😀') for _ in range(rng.randint(0, 6)))
    if t == F.TYPE_BYTES:
        return bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 7)))
    if t == F.TYPE_ENUM:
        return rng.choice([v.number for v in fd.enum_type.values])
    raise ValueError(fd.full_name)


def fill(rng, m, pool, depth):
    """Each field and each extension of m's type set with probability 1/2 (messages nest up to depth)."""
    d = m.DESCRIPTOR
    fields = list(d.fields) + (list(pool.FindAllExtensions(d)) if d.extension_ranges else [])
    for fd in fields:
        if rng.random() < 0.5 or (fd.message_type and depth == 0):
            continue
        target = m.Extensions[fd] if fd.is_extension else None
        if fd.label == fd.LABEL_REPEATED:
            values = m.Extensions[fd] if fd.is_extension else getattr(m, fd.name)
            for _ in range(rng.randint(0, 3)):
                if fd.message_type:
                    fill(rng, values.add(), pool, depth - 1)
                else:
                    values.append(scalar(rng, fd))
        elif fd.message_type:
            sub = target if fd.is_extension else getattr(m, fd.name)
            sub.SetInParent()
            fill(rng, sub, pool, depth - 1)
        elif fd.is_extension:
            m.Extensions[fd] = scalar(rng, fd)
        else:
            setattr(m, fd.name, scalar(rng, fd))


def fixed_keys(m, js, proto_names):
    """js (python's JSON object of m) with each repeated extension under "[pkg.ext]"; True when it had one."""
    had = False
    if not isinstance(js, dict):                  # a well-known type's own form
        return had
    for fd, value in m.ListFields():
        key = '[%s]' % fd.full_name if fd.is_extension else fd.name if proto_names else fd.json_name
        if fd.is_extension and fd.label == fd.LABEL_REPEATED:
            js[key] = js.pop(fd.name if proto_names else fd.json_name)
            had = True
        if fd.message_type and not fd.message_type.GetOptions().map_entry and key in js:
            values = value if fd.label == fd.LABEL_REPEATED else [value]
            objs = js[key] if fd.label == fd.LABEL_REPEATED else [js[key]]
            for v, o in zip(values, objs):
                had |= fixed_keys(v, o, proto_names)
    return had


def to_json(m, pool, proto_names, defaults):
    """python's JSON object of m (keys fixed) and whether m holds a repeated extension."""
    js = json.loads(json_format.MessageToJson(m, preserving_proto_field_name=proto_names,
                                              including_default_value_fields=defaults, descriptor_pool=pool))
    return js, fixed_keys(m, js, proto_names)


def gen(descset, count, seed, out):
    pool, factory = load(descset)
    rng = random.Random(int(seed))
    batch = factory.GetPrototype(pool.FindMessageTypeByName('parity.ext.Batch'))()
    for _ in range(int(count)):
        fill(rng, batch.items.add(), pool, 3)
    open(out, 'wb').write(batch.SerializeToString(deterministic=True))


def record(out, data):
    out.write(struct.pack('<I', len(data)))
    out.write(data)


def cases(descset, inp, outpath):
    pool, factory = load(descset)
    batch = factory.GetPrototype(pool.FindMessageTypeByName('parity.ext.Batch')).FromString(open(inp, 'rb').read())
    n = 0
    with open(outpath, 'wb') as out:
        for i, item in enumerate(batch.items):
            for k in range(3):
                js, repeated = to_json(item, pool, (i + k) % 2 == 1, k == 2)
                text = json.dumps(js, ensure_ascii=False, indent=None if k else 2)
                if repeated:                  # python reads no repeated extension: the item's own bytes
                    if k == 2:
                        continue
                    want = item.SerializeToString(deterministic=True)
                else:
                    m = type(item)()
                    json_format.Parse(text, m, descriptor_pool=pool)
                    want = m.SerializeToString(deterministic=True)
                record(out, text.encode('utf-8'))
                record(out, b'A')
                record(out, want)
                n += 1
    print('ext: %d JSON texts of %d items' % (n, len(batch.items)))


if __name__ == '__main__':
    {'gen': gen, 'cases': cases}[sys.argv[1]](*sys.argv[2:])
