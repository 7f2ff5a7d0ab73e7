#!/usr/bin/env python3
"""to2023.py FILE.proto: a proto2 or proto3 schema rewritten as edition 2023 with the same meaning
(the editions mapping: file features for the syntax's defaults, labels and [packed] as field
features, groups as DELIMITED message fields), on stdout. Line by line, for test/parity's schemas."""
import re
import sys

PROTO2_FILE = ["enum_type = CLOSED", "repeated_field_encoding = EXPANDED",
               "utf8_validation = NONE", "json_format = LEGACY_BEST_EFFORT"]
PROTO3_FILE = ["field_presence = IMPLICIT"]


def with_option(line, option):
    """The field declaration line with [option] added to its options."""
    if "[" in line:
        return line.replace("[", "[" + option + ", ", 1)
    return re.sub(r";(\s*(//.*)?)$", " [" + option + "];\\1", line, count=1)


def convert(lines):
    syntax = "proto2"
    out, groups = [], []          # groups: (depth, field line) to write after the group's '}'
    depth = 0
    for line in lines:
        m = re.match(r'\s*syntax\s*=\s*"(proto[23])"\s*;', line)
        if m:
            syntax = m.group(1)
            out.append('edition = "2023";')
            for f in PROTO2_FILE if syntax == "proto2" else PROTO3_FILE:
                out.append("option features.%s;" % f)
            continue
        g = re.match(r"(\s*)(optional |required |repeated )?group (\w+) = (\d+)\s*\{", line)
        if g:
            indent, label, name, number = g.groups()
            label = "repeated " if label == "repeated " else ""
            field = "%s%s%s %s = %s [features.message_encoding = DELIMITED];" % (
                indent, label, name, name.lower(), number)
            if label == "" and g.group(2) == "required ":
                field = with_option(field, "features.field_presence = LEGACY_REQUIRED")
            groups.append((depth, field))
            out.append("%smessage %s {" % (indent, name))
            depth += 1
            continue
        line = line.replace("[packed = true]", "[features.repeated_field_encoding = PACKED]")
        line = line.replace("[packed = false]", "[features.repeated_field_encoding = EXPANDED]")
        m = re.match(r"(\s*)(optional|required) (.*)$", line)
        if m:
            line = m.group(1) + m.group(3)
            if m.group(2) == "required":
                line = with_option(line, "features.field_presence = LEGACY_REQUIRED")
            elif syntax == "proto3":
                line = with_option(line, "features.field_presence = EXPLICIT")
        depth += line.count("{") - line.count("}")
        out.append(line)
        while groups and groups[-1][0] == depth and "}" in line:
            out.append(groups.pop()[1])
    return out


with open(sys.argv[1]) as src:
    print("\n".join(convert(src.read().split("\n"))).rstrip("\n"))
