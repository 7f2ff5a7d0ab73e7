#!/usr/bin/env python3
"""gen_schema.py: writes the big schemas that once made pbjc quadratic (issue 14 item 8).

  gen_schema.py fields N OUT     one proto3 message of N fields
  gen_schema.py enum N OUT       one proto3 enum of N values
  gen_schema.py comments MB OUT  about MB megabytes of commented messages, each a few fields
"""
import sys

RESERVED_FIRST, RESERVED_LAST = 19000, 19999   # field numbers kept for the protobuf library


def number(i):
    return i if i < RESERVED_FIRST else i + RESERVED_LAST - RESERVED_FIRST + 1


def fields(n, out):
    out.write('syntax = "proto3";\npackage hostile;\n\nmessage Big {\n')
    for i in range(1, n + 1):
        out.write(f"  int32 field_{i} = {number(i)};\n")
    out.write("}\n")


def enum(n, out):
    out.write('syntax = "proto3";\npackage hostile;\n\nenum Big {\n')
    for i in range(n):
        out.write(f"  BIG_VALUE_{i} = {i};\n")
    out.write("}\n")


def comments(mb, out):
    out.write('syntax = "proto3";\npackage hostile;\n\n')
    size, i = 0, 0
    while size < mb * 1000000:
        text = (f"// Message {i}: a leading comment, as documented schemas have.\n"
                f"// A second line of it.\nmessage M{i} {{\n"
                f"  // the id\n  int64 id = 1;  // trailing\n"
                f"  /* a block comment */\n  string name = 2;\n"
                f"  message Inner {{\n    // inner\n    bool flag = 1;\n  }}\n"
                f"  Inner inner = 3;\n}}\n\n")
        out.write(text)
        size += len(text)
        i += 1


if __name__ == "__main__":
    kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(path, "w") as f:
        {"fields": fields, "enum": enum, "comments": comments}[kind](n, f)
