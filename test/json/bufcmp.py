#!/usr/bin/python3
"""test/json/bufcmp.py: pbjc's JSON against buf's (`buf convert`, Go's protojson), for check-json-buf.

  bufcmp.py fix DESCSET BATCH IN.bin OUT.bin   the batch with values JSON cannot carry made ones it can (Anys of
                                               known types, times in range: test/jsonin/oracle.py's fix; Values' numbers
                                               finite, nulls NULL_VALUE), re-encoded
  bufcmp.py same OURS.json BUF.json            the two JSON texts equal as values: objects compared by key whatever
                                               their order (the mapping fixes no order of fields or map keys; protojson
                                               writes fields in declaration order, pbjc and C++ in number order),
                                               numbers by value (float fields: as float32, test/json/oracle.py's same)
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ext import load                       # noqa: E402
from oracle import where                   # noqa: E402  (test/json/oracle.py: the first difference)


def finite_values(m):
    """Each google.protobuf.Value's number made finite (neither JSON writer writes NaN or an infinity there), its
    null_value and every NullValue field NULL_VALUE (JSON's null carries no other number)."""
    kind = m.WhichOneof('kind') if m.DESCRIPTOR.full_name == 'google.protobuf.Value' else None
    if kind == 'number_value' and not math.isfinite(m.number_value):
        m.number_value = 0.5
    if kind == 'null_value':
        m.null_value = 0
    for fd, v in m.ListFields():
        if fd.enum_type and fd.enum_type.full_name == 'google.protobuf.NullValue':
            if fd.label == fd.LABEL_REPEATED:
                v[:] = [0] * len(v)
            else:
                setattr(m, fd.name, 0)
        if fd.message_type is None:
            continue
        if fd.message_type.GetOptions().map_entry:
            values = v.values() if fd.message_type.fields_by_name['value'].message_type else []
        else:
            values = v if fd.label == fd.LABEL_REPEATED else [v]
        for x in values:
            finite_values(x)


def fix_batch(descset, batch_type, inp, out):
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'jsonin', 'oracle.py')
    spec = importlib.util.spec_from_file_location('jsonin_oracle', path)
    jsonin = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(jsonin)
    pool, factory = load(descset)
    batch = factory.GetPrototype(pool.FindMessageTypeByName(batch_type)).FromString(open(inp, 'rb').read())
    for item in batch.items:
        jsonin.fix(item, pool, factory)
        finite_values(item)
    open(out, 'wb').write(batch.SerializeToString(deterministic=True))


def same(ours, theirs):
    a, b = json.load(open(ours, encoding='utf-8')), json.load(open(theirs, encoding='utf-8'))
    w = where(a, b)
    if w:
        sys.exit('json-buf: %s differs from %s (pbjc against buf) at %s' % (ours, theirs, w))
    print('json-buf: %d items as buf writes them' % len(a.get('items', [])))


if __name__ == '__main__':
    if sys.argv[1] == 'fix':
        fix_batch(*sys.argv[2:6])
    else:
        same(*sys.argv[2:4])
