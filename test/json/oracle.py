#!/usr/bin/python3
"""test/json/oracle.py DESCRIPTOR_SET BATCH_TYPE IN.bin MODE OURS.jsonl: python protobuf's json_format
(MessageToJson) on each item of the batch, compared with pbjc's M_to_json lines (OURS.jsonl, from
test/json/driver.c). JSON is compared as parsed values (key order and number spelling may differ), a
number also equal when both round to the same float32 (float fields: protobuf C++ prints "%.6g"/"%.9g",
python the shortest form); an item pbjc refuses for one of the reasons `refused` names is not compared;
an item both refuse (a Timestamp out of range, an Any of an unknown type, ...)
is equal. Extensions are "[pkg.ext]" keys on both sides (python 4.21 writes a repeated one under its json_name:
test/json/ext.py's fixed_keys renames it). Exit 1 with the first difference."""
import json, math, os, struct, sys
from google.protobuf import json_format
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ext import fixed_keys, load

def refused(m):
    """Whether m holds a value pbjc refuses (PBJ_ERR_JSON) and python 4.21 writes: a Timestamp whose nanos
    lie outside [0, 999999999] (python moves them into the seconds; C++ refuses them too), a Value whose
    number is NaN or infinite (python writes "NaN", which reads back as a string_value). The two places
    the outputs may differ."""
    name = m.DESCRIPTOR.full_name
    if name == 'google.protobuf.Timestamp' and not 0 <= m.nanos <= 999999999:
        return True
    if name == 'google.protobuf.Value' and m.WhichOneof('kind') == 'number_value' and not math.isfinite(m.number_value):
        return True
    for fd, v in m.ListFields():
        if fd.message_type is None:
            continue
        if fd.message_type.GetOptions().map_entry:
            vals = v.values() if fd.message_type.fields_by_name['value'].message_type else []
        else:
            vals = v if fd.label == fd.LABEL_REPEATED else [v]
        if any(refused(x) for x in vals):
            return True
    return False

def where(a, b, path=''):
    """The path of the first difference of a and b, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f'{path}: keys {sorted(a.keys() ^ b.keys())[:5]}'
        return next((w for k in a for w in [where(a[k], b[k], f'{path}.{k}')] if w), None)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f'{path}: {len(a)} against {len(b)} elements'
        return next((w for i, (x, y) in enumerate(zip(a, b)) for w in [where(x, y, f'{path}[{i}]')] if w), None)
    return None if same(a, b) else f'{path}: {json.dumps(a)[:200]} against {json.dumps(b)[:200]}'

def same(a, b):
    if isinstance(a, (dict, list)):
        return where(a, b) is None
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        if a == b:
            return True
        f32 = lambda x: struct.unpack('f', struct.pack('f', x))[0] if abs(x) < 3.5e38 else x
        return f32(a) == f32(b) and not math.isnan(a)
    return type(a) == type(b) and a == b

def main():
    desc_set, batch_type, inp, mode, ours = sys.argv[1:]
    pool, factory = load(desc_set)
    batch = factory.GetPrototype(pool.FindMessageTypeByName(batch_type))()
    batch.ParseFromString(open(inp, 'rb').read())
    lines = open(ours, encoding='utf-8', errors='surrogateescape').read().split('\n')[:-1]
    if len(lines) != len(batch.items):
        sys.exit(f'json: {len(lines)} lines from M_to_json, {len(batch.items)} items')
    nd = mode == 'names_defaults'
    for i, (item, line) in enumerate(zip(batch.items, lines)):
        try:
            want = json.loads(json_format.MessageToJson(item, including_default_value_fields=nd,
                                                        preserving_proto_field_name=nd, descriptor_pool=pool))
            fixed_keys(item, want, nd)
        except Exception as e:
            want = ('ERROR', str(e))
        got = ('ERROR', line) if line.startswith('ERROR') else json.loads(line)
        if isinstance(got, tuple) and not isinstance(want, tuple) and refused(item):
            continue
        if isinstance(want, tuple) or isinstance(got, tuple):
            if isinstance(want, tuple) and isinstance(got, tuple):
                continue
        elif same(want, got):
            continue
        w = where(want, got) if not isinstance(want, tuple) and not isinstance(got, tuple) else f'{want} against {got}'
        sys.exit(f'json ({mode}): item {i} differs (python against pbjc) at {w}')
    print(f'json ({mode}): {len(lines)} items as python writes them')

if __name__ == '__main__':
    main()
