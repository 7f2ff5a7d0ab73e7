#!/usr/bin/env python3
"""limits.py DIR OK: edition 2026's proto limits, each one past its bound, as test/editions/errors cases (DIR/X.proto,
X.expected); and OK, a schema past one that opts out (features.enforce_proto_limits = LEGACY_NO_EXPLICIT_LIMITS)."""
import os
import sys

OPT_OUT = ' (features.enforce_proto_limits = LEGACY_NO_EXPLICIT_LIMITS can be used to opt out of this check)'

def case(d, name, body, expected):
    with open(os.path.join(d, name + '.proto'), 'w') as f:
        f.write('edition = "2026";\n\npackage limits;\n\n' + body)
    with open(os.path.join(d, name + '.expected'), 'w') as f:
        f.write(f'{name}.proto:{expected}{OPT_OUT}\n')

def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    fields = ''.join(f'  int32 f{i} = {i};\n' for i in range(1, 1502))
    case(d, 'fields_per_message', 'message Big {\n' + fields + '}\n',
         '5:9: error: Message name Big should not contain more than 1500 fields')
    oneofs = ''.join(f'  oneof o{i} {{ int32 f{i} = {i}; }}\n' for i in range(1, 1002))
    case(d, 'oneofs_per_message', 'message Big {\n' + oneofs + '}\n',
         '5:9: error: Message name Big should not contain more than 1000 oneofs')
    members = ''.join(f'    int32 f{i} = {i};\n' for i in range(1, 1202))
    case(d, 'fields_per_oneof', 'message M {\n  oneof choice {\n' + members + '  }\n}\n',
         '6:9: error: Oneof name choice should not contain more than 1200 fields')
    values = ''.join(f'  BIG_V{i} = {i};\n' for i in range(0, 1701))
    case(d, 'values_per_enum', 'enum Big {\n' + values + '}\n',
         '5:6: error: Enum name Big should not contain more than 1700 values')
    fine = 'message Fine {\n  option features.enforce_proto_limits = LEGACY_NO_EXPLICIT_LIMITS;\n' + fields + '}\n'
    with open(sys.argv[2], 'w') as f:
        f.write('edition = "2026";\n\npackage limits;\n\n' + fine)

main()
