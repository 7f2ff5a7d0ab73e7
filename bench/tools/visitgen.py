#!/usr/bin/python3
"""visitgen.py: writes read-every-field visitors for one library's generated
structs, from a FileDescriptorSet (protoc -o X --include_imports).

The sum is WORKLOAD.md's: numbers, bools, enums and the field number of a set
oneof member are added; a string or bytes field adds its length, first and
last byte. Every reader in the benchmark must return the same sum.

usage: visitgen.py STYLE DESCRIPTOR_SET ROOT_MESSAGE[,ROOT...] OUT [SKIP_FIELD...]
       visitgen.py files DESCRIPTOR_SET
  STYLE: cpp | protobufc | nanopb | pbjc | pbjc-views
  SKIP_FIELD: pkg.Msg.field visited by the harness itself (a callback)
"""
import sys
from google.protobuf import descriptor_pb2 as D

F = D.FieldDescriptorProto
CPP_KEYWORDS = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char
char16_t char32_t class compl const constexpr const_cast continue decltype default delete do double
dynamic_cast else enum explicit export extern false float for friend goto if inline int long mutable
namespace new noexcept not not_eq nullptr operator or or_eq private protected public register
reinterpret_cast return short signed sizeof static static_assert static_cast struct switch template
this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile
wchar_t while xor xor_eq""".split())

def load(path):
    fds = D.FileDescriptorSet()
    fds.ParseFromString(open(path, 'rb').read())
    msgs = {}
    def walk(pkg, prefix, m, f):
        full = prefix + '.' + m.name
        msgs[full] = (m, pkg, full[len(pkg) + 2:] if pkg else full[1:], f)
        for n in m.nested_type:
            walk(pkg, full, n, f)
    for f in fds.file:
        for m in f.message_type:
            walk(f.package, '.' + f.package if f.package else '', m, f)
    return msgs

def reachable(msgs, roots):
    seen, todo = [], ['.' + r for r in roots.split(',')]
    while todo:
        t = todo.pop()
        if t in seen: continue
        seen.append(t)
        for fd in msgs[t][0].field:
            if fd.type == F.TYPE_MESSAGE: todo.append(fd.type_name)
    return seen

def is_bytes(fd): return fd.type in (F.TYPE_STRING, F.TYPE_BYTES)

def conv(fd, x):
    """The value of a scalar as the sum's uint64."""
    t = fd.type
    if t in (F.TYPE_INT32, F.TYPE_SINT32, F.TYPE_SFIXED32, F.TYPE_ENUM):
        return '(uint64_t)(int64_t)(int32_t)(%s)' % x
    if t == F.TYPE_BOOL: return '(uint64_t)((%s) != 0)' % x
    if t == F.TYPE_FLOAT: return 'float_bits(%s)' % x
    if t == F.TYPE_DOUBLE: return 'double_bits(%s)' % x
    return '(uint64_t)(%s)' % x

WRAPPERS = {'.google.protobuf.%sValue' % t for t in
            ('Double', 'Float', 'Int64', 'UInt64', 'Int32', 'UInt32', 'Bool', 'String', 'Bytes')}

class Style:
    def unboxes(self, fd): return False
    def oneof_name(self, m, fd): return m.oneof_decl[fd.oneof_index].name
    def in_oneof(self, fd): return fd.HasField('oneof_index') and not fd.proto3_optional

class Cpp(Style):
    ext = 'cc'
    def ctype(self, msgs, full):
        m, pkg, rel, f = msgs[full]
        return '::' + '::'.join(pkg.split('.')) + '::' + rel.replace('.', '_') if pkg else '::' + rel.replace('.', '_')
    def acc(self, fd):
        n = fd.name.lower()
        return n + '_' if n in CPP_KEYWORDS else n
    def param(self, t): return 'const %s &m' % t
    def arg(self, expr): return expr
    def scalar(self, fd): return 'm.%s()' % self.acc(fd)
    def bytes_sum(self, fd, x): return 'str_sum(%s)' % x
    def msg_present(self, fd): return 'm.has_%s()' % self.acc(fd)
    def msg_ref(self, fd): return 'm.%s()' % self.acc(fd)
    def rep_count(self, fd): return 'm.%s_size()' % self.acc(fd)
    def rep_elem(self, fd, i): return 'm.%s(%s)' % (self.acc(fd), i)
    def oneof_case(self, m, fd): return '(uint32_t)m.%s_case()' % self.oneof_name(m, fd)
    def oneof_member(self, m, fd): return 'm.%s()' % self.acc(fd)
    def msg_of_member(self, x): return x

class ProtobufC(Style):
    ext = 'c'
    def camel(self, s):
        return ''.join(p[:1].upper() + p[1:] for p in s.split('_'))
    def ctype(self, msgs, full):
        m, pkg, rel, f = msgs[full]
        parts = [self.camel(p) for p in pkg.split('.')] if pkg else []
        return '__'.join(parts + [self.camel(p) for p in rel.split('.')])
    def acc(self, fd): return fd.name.lower()
    def param(self, t): return 'const %s *m' % t
    def arg(self, expr): return expr
    def scalar(self, fd): return 'm->%s' % self.acc(fd)
    def bytes_sum(self, fd, x):
        return ('cstr_sum(%s)' if fd.type == F.TYPE_STRING else 'bin_sum(%s)') % x
    def msg_present(self, fd): return 'm->%s' % self.acc(fd)
    def msg_ref(self, fd): return 'm->%s' % self.acc(fd)
    def rep_count(self, fd): return 'm->n_%s' % self.acc(fd)
    def rep_elem(self, fd, i): return 'm->%s[%s]' % (self.acc(fd), i)
    def oneof_case(self, m, fd): return '(uint32_t)m->%s_case' % self.camel_to_lower(self.oneof_name(m, fd))
    def oneof_member(self, m, fd): return 'm->%s' % self.acc(fd)
    def camel_to_lower(self, name):  # protoc-c's CamelToLower, for oneof names
        out, was_upper = '', True
        for ch in name:
            if ch.isupper():
                out += ('' if was_upper else '_') + ch.lower()
                was_upper = True
            else:
                out += ch
                was_upper = False
        return out

class Nanopb(Style):
    ext = 'c'
    def ctype(self, msgs, full):
        m, pkg, rel, f = msgs[full]
        return (pkg.replace('.', '_') + '_' if pkg else '') + rel.replace('.', '_')
    def acc(self, fd): return fd.name
    def param(self, t): return 'const %s *m' % t
    def scalar(self, fd): return 'm->%s' % fd.name
    def bytes_sum(self, fd, x):
        if fd.type == F.TYPE_STRING: return 'cstr_sum(%s)' % x
        return 'bin_sum((%s).size, (%s).bytes)' % (x, x)
    def msg_present(self, fd): return 'm->has_%s' % fd.name
    def msg_ref(self, fd): return '&m->%s' % fd.name
    def rep_count(self, fd): return 'm->%s_count' % fd.name
    def rep_elem(self, fd, i): return 'm->%s[%s]' % (fd.name, i)
    def rep_elem_msg(self, fd, i): return '&m->%s[%s]' % (fd.name, i)
    def oneof_case(self, m, fd): return '(uint32_t)m->which_%s' % self.oneof_name(m, fd)
    def oneof_member(self, m, fd): return 'm->%s.%s' % (self.oneof_name(m, fd), fd.name)
    def oneof_member_msg(self, m, fd): return '&m->%s.%s' % (self.oneof_name(m, fd), fd.name)

class Pbjc(Nanopb):
    def unboxes(self, fd): return fd.type_name in WRAPPERS
    def bytes_sum(self, fd, x): return 'slice_sum(%s)' % x
    def msg_present(self, fd): return 'm->%s' % fd.name
    def msg_ref(self, fd): return 'm->%s' % fd.name
    def rep_count(self, fd): return 'm->%s.count' % fd.name
    def rep_elem(self, fd, i): return 'm->%s.data[%s]' % (fd.name, i)
    def rep_elem_msg(self, fd, i): return '&m->%s.data[%s]' % (fd.name, i)
    def oneof_case(self, m, fd): return '(uint32_t)m->%s_case' % self.oneof_name(m, fd)
    def oneof_member_msg(self, m, fd): return 'm->%s.%s' % (self.oneof_name(m, fd), fd.name)

class PbjcViews(Pbjc):
    """pbjc's views (pbj.views): the same sum read straight from the bytes."""
    def view(self, msgs, full): return self.ctype(msgs, full) + '_view'
    def param(self, t): return 'const %s *m' % t
    def get(self, msgs, full, fd): return '%s_%s' % (self.view(msgs, full), fd.name)

VIEW_CTYPES = {F.TYPE_DOUBLE: 'double', F.TYPE_FLOAT: 'float', F.TYPE_BOOL: 'bool', F.TYPE_UINT64: 'uint64_t',
               F.TYPE_FIXED64: 'uint64_t', F.TYPE_UINT32: 'uint32_t', F.TYPE_FIXED32: 'uint32_t', F.TYPE_INT32: 'int32_t',
               F.TYPE_SINT32: 'int32_t', F.TYPE_SFIXED32: 'int32_t', F.TYPE_ENUM: 'int32_t'}

def emit_views(style, msgs, root, skip):
    names = reachable(msgs, root)
    fn = lambda full: 'visit_view_' + full[1:].replace('.', '_')
    out = ['static uint64_t %s(%s);' % (fn(f), style.param(style.view(msgs, f))) for f in names]
    for full in names:
        m = msgs[full][0]
        out.append('static uint64_t %s(%s)\n{\n    uint64_t s = 0;' % (fn(full), style.param(style.view(msgs, full))))
        if not m.field: out.append('    (void)m;')
        for fd in m.field:
            if full[1:] + '.' + fd.name in skip: continue
            get = style.get(msgs, full, fd)
            msg = fd.type == F.TYPE_MESSAGE
            if fd.label == F.LABEL_REPEATED:
                if msg: e, add = '%s c;' % style.view(msgs, fd.type_name), '%s(&c)' % fn(fd.type_name)
                elif is_bytes(fd): e, add = 'pbj_slice c;', style.bytes_sum(fd, 'c')
                else: e, add = '%s c;' % VIEW_CTYPES.get(fd.type, 'int64_t'), conv(fd, 'c')
                out.append('    { pbj_view_iter it = %s(m); %s while (%s_next(&it, &c)) s += %s; }' % (get, e, get, add))
                continue
            if msg and (style.in_oneof(fd) or not style.unboxes(fd)):   # wrappers unboxed unless oneof members
                v = '%s c; if (%s(m, &c) == PBJ_OK) s += ' % (style.view(msgs, fd.type_name), get)
                tail = '%s(&c);' % fn(fd.type_name)
            else:
                typ = msgs[fd.type_name][0].field[0] if msg else fd
                x = '%s(m)' % get
                v, tail = 's += ', (style.bytes_sum(typ, x) if is_bytes(typ) else conv(typ, x)) + ';'
            if style.in_oneof(fd):
                case = '%s_%s_case(m)' % (style.view(msgs, full), style.oneof_name(m, fd))
                out.append('    if (%s == %d) { s += %d; %s%s }' % (case, fd.number, fd.number, v, tail))
            elif msg:
                out.append('    if (%s_has_%s(m)) { %s%s }' % (style.view(msgs, full), fd.name, v, tail))
            else:
                out.append('    %s%s' % (v, tail))
        out.append('    return s;\n}')
    return '\n'.join(out) + '\n'

def emit(style, msgs, root, skip):
    names = reachable(msgs, root)
    fn = lambda full: 'visit_' + full[1:].replace('.', '_')
    out = []
    for full in names:
        out.append('static uint64_t %s(%s);' % (fn(full), style.param(style.ctype(msgs, full))))
    for full in names:
        m = msgs[full][0]
        out.append('static uint64_t %s(%s)\n{\n    uint64_t s = 0;' % (fn(full), style.param(style.ctype(msgs, full))))
        if not m.field: out.append('    (void)m;')
        cpp = isinstance(style, Cpp)
        pbc = isinstance(style, ProtobufC)
        for fd in m.field:
            if full[1:] + '.' + fd.name in skip: continue
            msg = fd.type == F.TYPE_MESSAGE
            sub = fn(fd.type_name) if msg else None
            if fd.label == F.LABEL_REPEATED:
                n = style.rep_count(fd)
                if msg:
                    e = style.rep_elem(fd, 'i') if (cpp or pbc) else style.rep_elem_msg(fd, 'i')
                    body = 's += %s(%s);' % (sub, e)
                elif is_bytes(fd):
                    body = 's += %s;' % style.bytes_sum(fd, style.rep_elem(fd, 'i'))
                else:
                    body = 's += %s;' % conv(fd, style.rep_elem(fd, 'i'))
                out.append('    for (size_t i = 0; i < (size_t)%s; i++) %s' % (n, body))
            elif style.in_oneof(fd):
                case = style.oneof_case(m, fd)
                if msg:
                    if cpp or pbc: e = style.oneof_member(m, fd)
                    else: e = style.oneof_member_msg(m, fd)
                    v = '%s(%s)' % (sub, e)
                elif is_bytes(fd):
                    v = style.bytes_sum(fd, style.oneof_member(m, fd))
                else:
                    v = conv(fd, style.oneof_member(m, fd))
                out.append('    if (%s == %d) s += %d + %s;' % (case, fd.number, fd.number, v))
            elif msg and style.unboxes(fd):  # pbjc: a wrapper is its value plus a has-bit
                inner = msgs[fd.type_name][0].field[0]
                x = style.scalar(fd)
                v = style.bytes_sum(inner, x) if is_bytes(inner) else conv(inner, x)
                out.append('    if (m->has_%s) s += %s;' % (fd.name, v))
            elif msg:
                out.append('    if (%s) s += %s(%s);' % (style.msg_present(fd), sub, style.msg_ref(fd)))
            elif is_bytes(fd):
                out.append('    s += %s;' % style.bytes_sum(fd, style.scalar(fd)))
            else:
                out.append('    s += %s;' % conv(fd, style.scalar(fd)))
        out.append('    return s;\n}')
    return '\n'.join(out) + '\n'

def main():
    if sys.argv[1] == 'files':  # visitgen.py files DESCRIPTOR_SET: the files in it
        fds = D.FileDescriptorSet()
        fds.ParseFromString(open(sys.argv[2], 'rb').read())
        print('\n'.join(f.name for f in fds.file))
        return
    style_name, dset, root, outp = sys.argv[1:5]
    skip = set(sys.argv[5:])
    style = {'cpp': Cpp, 'protobufc': ProtobufC, 'nanopb': Nanopb, 'pbjc': Pbjc, 'pbjc-views': PbjcViews}[style_name]()
    msgs = load(dset)
    body = (emit_views if style_name == 'pbjc-views' else emit)(style, msgs, root, skip)
    with open(outp, 'w') as o:
        o.write('/* generated by bench/tools/visitgen.py (%s) for %s; do not edit */\n' % (style_name, root))
        o.write(body)

if __name__ == '__main__':
    main()
