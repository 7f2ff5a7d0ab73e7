#!/usr/bin/env python3
"""sorted_locations.py: a FileDescriptorSet in protoc's text form (stdin), each file's source locations as buf writes them.

buf's source info differs from protoc's (and pbjc's, which test/descriptor checks against protoc 3.21) in four
ways, the same on proto2 and proto3 files: a location that starts where its parent does comes before the parent;
a path that several statements share (two `reserved` lines) has one location, the first; a line comment's text
has no final newline; a field's default value's span starts at `default`, protoc's at the value. So both sides
are brought to one form: locations sorted, the first of each path kept, comments without their final newline,
default values without spans; a field's `[...]` holding only pseudo-options (default, json_name) has no
options location in buf's, one in protoc's: dropped. buf also adds an extension of its own to SourceCodeInfo (field 536000000),
dropped here."""
import re
import sys

def path_of(block):
    return tuple(re.findall(r'^\s*path: (\d+)$', block, re.M))

def is_default_value(path):
    """[.., 2 or 6, i, 7]: a field's or nested extension's default_value; [7, i, 7]: a file extension's."""
    return len(path) >= 3 and path[-1] == '7' and (path[-3] in ('2', '6') or len(path) == 3 and path[0] == '7')

def is_field_options(path):
    """[.., 2 or 6, i, 8] or [7, i, 8]: a field's or extension's options."""
    return len(path) >= 3 and path[-1] == '8' and (path[-3] in ('2', '6') or len(path) == 3 and path[0] == '7')

def buf_form(blocks):
    seen, kept = set(), []
    paths = [path_of(b) for b in blocks]
    for b in blocks:
        p = path_of(b)
        if is_field_options(p) and not any(len(q) > len(p) and q[:len(p)] == p for q in paths):
            continue                            # only pseudo-options inside
        if path_of(b) in seen:
            continue
        seen.add(path_of(b))
        b = re.sub(r'\\n"$', '"', b, flags=re.M)
        if is_default_value(path_of(b)):
            b = re.sub(r'^\s*span: \d+\n', '', b, flags=re.M)
        kept.append(b)
    return sorted(kept)

def main():
    out, block, blocks, indent = [], None, [], ''
    lines = iter(sys.stdin)
    for line in lines:
        if line.strip() == '536000000 {':        # buf's own extension of SourceCodeInfo
            close = line[:len(line) - len(line.lstrip())] + '}'
            for inner in lines:
                if inner.rstrip() == close:
                    break
            continue
        if block is not None:
            block.append(line)
            if line.rstrip() == indent + '}':
                blocks.append(''.join(block))
                block = None
            continue
        if line.strip() == 'location {':
            indent = line[:len(line) - len(line.lstrip())]
            block = [line]
            continue
        if blocks:
            out.extend(buf_form(blocks))
            blocks = []
        out.append(line)
    out.extend(buf_form(blocks))
    sys.stdout.write(''.join(out))

main()
