// fuzz_diff.cc: libFuzzer target: pbjc's code against libprotobuf 3.21's C++ on protobuf's TestAllTypesProto2/3.
//
// The input's first byte picks the message (even: TestAllTypesProto2, odd: TestAllTypesProto3); the rest is
// read by both. Built twice (test/fuzz.mk):
//   fuzz_diff (bytes): both accept or both refuse; when they accept, pbjc's encode writes C++'s deterministic
//     serialization byte for byte, and pbjc's print writes C++'s TextFormat::PrintToString text for text.
//     pbjc keeps unknown fields as their bytes where C++ re-encodes them (an overlong varint in an unknown field
//     comes back shorter): when the encodings differ, the known fields alone (unknown fields dropped by both)
//     must encode the same, and pbjc's encoding must read in C++ as the input did (re-serialized the same).
//     pbjc keeps an extension's value as its bytes too (a negative int32 written in 5 bytes stays 5 bytes):
//     where the message holds an extension, only the second rule holds.
//     pbjc unboxes a singular field of google.protobuf's wrappers (a DoubleValue field is a double with a has-bit):
//     the unknown fields inside one are dropped, so C++'s message loses them too before it is compared.
//   fuzz_diff_json (-DDIFF_JSON, JSON): both accept or both refuse, except where pbjc is deliberately stricter
//     (STRICTER below: the reader's error messages for what C++ 3.21 lets through) or more permissive (an
//     extension's "[name]" key); when both accept, the two messages encode to the same bytes.
// Any broken rule aborts with a line saying which, and the input's two readings.
// C++ only here, in the test: pbjc's side is C (diff_pbj.c).
#include "google/protobuf/test_messages_proto2.pb.h"
#include "google/protobuf/test_messages_proto3.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "diff_pbj.h"

namespace {

using google::protobuf::Message;

[[noreturn]] void fail(const char *rule, const std::string &cpp, const diff_pbj_result &pbj)
{
    std::fprintf(stderr, "fuzz_diff: %s\n--- C++\n%.3000s\n--- pbjc (%s%s%s)\n%.3000s\n", rule, cpp.c_str(), pbj.status,
                 pbj.why ? ": " : "", pbj.why ? pbj.why : "", pbj.text ? pbj.text : "");
    std::abort();
}

std::unique_ptr<Message> make(bool proto3)
{
    if (proto3) return std::unique_ptr<Message>(new protobuf_test_messages::proto3::TestAllTypesProto3);
    return std::unique_ptr<Message>(new protobuf_test_messages::proto2::TestAllTypesProto2);
}

std::string serialize(const Message &m)
{
    std::string s;
    {
        google::protobuf::io::StringOutputStream out(&s);
        google::protobuf::io::CodedOutputStream coded(&out);
        coded.SetSerializationDeterministic(true);      // map entries in key order, as pbjc writes them
        if (!m.SerializeToCodedStream(&coded)) std::abort();
    }
    return s;
}

std::string bytes_of(const diff_pbj_result &r)
{
    return r.len ? std::string(reinterpret_cast<const char *>(r.bytes), r.len) : std::string();
}

std::string hex(const std::string &b)
{
    std::string s;
    char x[4];
    for (unsigned char c : b) {
        std::snprintf(x, sizeof x, "%02x ", c);
        s += x;
    }
    return s;
}

#ifdef DIFF_JSON
// Where C++ 3.21's JSON reader says "too deep" pbjc may read on: one depth rule for every reader, the binary
// decoder's (README.md lists it with the other deliberate differences).
bool cpp_json_too_deep(const std::string &cpp_error) { return cpp_error.find("too deep") != std::string::npos; }
#endif

#ifndef DIFF_JSON
// m without the unknown fields of the singular wrapper fields (of google/protobuf/wrappers.proto's messages) in it.
void drop_wrapper_unknowns(Message &m)
{
    const google::protobuf::Reflection *refl = m.GetReflection();
    std::vector<const google::protobuf::FieldDescriptor *> fields;
    refl->ListFields(m, &fields);
    for (const google::protobuf::FieldDescriptor *f : fields) {
        if (f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
        if (!f->is_repeated()) {
            Message *sub = refl->MutableMessage(&m, f);
            if (f->message_type()->file()->name() == "google/protobuf/wrappers.proto")
                sub->GetReflection()->MutableUnknownFields(sub)->Clear();
            else
                drop_wrapper_unknowns(*sub);
        } else
            for (int i = 0; i < refl->FieldSize(m, f); i++) drop_wrapper_unknowns(*refl->MutableRepeatedMessage(&m, f, i));
    }
}

// Whether m or a message in it sets an extension.
bool has_extension(const Message &m)
{
    const google::protobuf::Reflection *refl = m.GetReflection();
    std::vector<const google::protobuf::FieldDescriptor *> fields;
    refl->ListFields(m, &fields);
    for (const google::protobuf::FieldDescriptor *f : fields) {
        if (f->is_extension()) return true;
        if (f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
        if (!f->is_repeated()) {
            if (has_extension(refl->GetMessage(m, f))) return true;
        } else
            for (int i = 0; i < refl->FieldSize(m, f); i++)
                if (has_extension(refl->GetRepeatedMessage(m, f, i))) return true;
    }
    return false;
}

// Encodings that differ may differ only in how the unknown fields are written: see the top of the file.
void same_but_unknown(bool proto3, Message &m, const uint8_t *p, size_t n, const std::string &cpp_bytes,
                      const std::string &pbj_bytes, const diff_pbj_result &r)
{
    std::unique_ptr<Message> again = make(proto3);
    bool again_ok = again->ParseFromString(pbj_bytes);
    if (again_ok) drop_wrapper_unknowns(*again);
    if (!again_ok || serialize(*again) != cpp_bytes)
        fail("the re-encodings differ (pbjc's does not read in C++ as the input)", hex(cpp_bytes) + "\n--- pbjc's\n" + hex(pbj_bytes), r);
    if (has_extension(m)) return;      // pbjc keeps an extension's value as its bytes, as unknown fields
    m.DiscardUnknownFields();
    diff_pbj_result known;
    diff_pbj_binary(proto3, 1, p, n, &known);
    std::string cpp_known = serialize(m);
    if (!known.ok || cpp_known != bytes_of(known))
        fail("the re-encodings of the known fields differ", hex(cpp_known) + "\n--- pbjc's\n" + hex(bytes_of(known)), known);
    diff_pbj_free(&known);
}

void differ(bool proto3, const uint8_t *p, size_t n)
{
    std::unique_ptr<Message> m = make(proto3);
    bool cpp_ok = m->ParseFromArray(p, static_cast<int>(n));
    if (cpp_ok) drop_wrapper_unknowns(*m);
    diff_pbj_result r;
    diff_pbj_binary(proto3, 0, p, n, &r);
    std::string cpp_text;
    if (cpp_ok) google::protobuf::TextFormat::PrintToString(*m, &cpp_text);
    if (cpp_ok != (r.ok != 0)) fail(cpp_ok ? "C++ reads the bytes, pbjc refuses them" : "pbjc reads the bytes, C++ refuses them", cpp_text, r);
    if (cpp_ok) {
        if (cpp_text != std::string(r.text, r.text_len)) fail("the texts differ", cpp_text, r);
        std::string cpp_bytes = serialize(*m), pbj_bytes = bytes_of(r);
        if (cpp_bytes != pbj_bytes) same_but_unknown(proto3, *m, p, n, cpp_bytes, pbj_bytes, r);
    }
    diff_pbj_free(&r);
}
#else
// pbjc's reader refuses these where C++ 3.21 reads on (its error messages; README.md's list says why, and
// test/conformance/README.md which of the suite's Recommended tests C++ fails for them).
const char *const STRICTER[] = {
    "field given twice",                                          // a key twice, or a field by both its names
    "map key given twice",
    "expected a key after ','",                                   // a trailing comma in an object
    "expected a value after ','",                                 // a trailing comma in an array
    "null is no element of a repeated field or value of a map",
    "a FieldMask path in JSON has no '_'",
    "invalid escape (or an unpaired surrogate)",                  // "\U8C37", a lone surrogate
    "expected true or false",                                     // a quoted bool: "true"
    "control character in a string",                              // a raw newline in a string (RFC 8259: escaped)
    nullptr,
};

// pbjc reads an extension's "[full.name]" key (as the JSON mapping and protobuf's later versions do), C++ 3.21
// says "Cannot find field": this is where pbjc is more permissive.
bool extension_key(const std::string &cpp_error)
{
    return cpp_error.find("]: Cannot find field.") != std::string::npos;
}

// C++ 3.21 takes \v and \f for white space (isspace); JSON (RFC 8259) and pbjc do not: whether pbjc reads the input
// with them made spaces.
bool reads_with_plain_spaces(bool proto3, std::string in)
{
    bool changed = false;
    for (char &c : in)
        if (c == '\v' || c == '\f') c = ' ', changed = true;
    if (!changed) return false;
    diff_pbj_result r;
    diff_pbj_json(proto3, in.data(), in.size(), &r);
    bool ok = r.ok != 0;
    diff_pbj_free(&r);
    return ok;
}

bool stricter(const char *why)
{
    for (size_t i = 0; why && STRICTER[i]; i++)
        if (std::strcmp(why, STRICTER[i]) == 0) return true;
    return false;
}

void differ(bool proto3, const uint8_t *p, size_t n)
{
    std::unique_ptr<Message> m = make(proto3);
    std::string in(reinterpret_cast<const char *>(p), n);
    google::protobuf::util::Status st = google::protobuf::util::JsonStringToMessage(in, m.get());
    bool cpp_ok = st.ok();
    diff_pbj_result r;
    diff_pbj_json(proto3, in.data(), in.size(), &r);
    if (cpp_ok && !r.ok && !stricter(r.why) && !reads_with_plain_spaces(proto3, in)) fail("C++ reads the JSON, pbjc refuses it", m->DebugString(), r);
    std::string cpp_error(st.message());
    if (!cpp_ok && r.ok && !extension_key(cpp_error) && !cpp_json_too_deep(cpp_error))
        fail("pbjc reads the JSON, C++ refuses it", cpp_error, r);
    if (cpp_ok && r.ok) {
        std::string cpp_bytes = serialize(*m), pbj_bytes = bytes_of(r);
        if (cpp_bytes != pbj_bytes) fail("what the JSON reads encodes differently", hex(cpp_bytes) + "\n--- pbjc's\n" + hex(pbj_bytes), r);
    }
    diff_pbj_free(&r);
}
#endif

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool quiet = (google::protobuf::SetLogHandler(nullptr), true);   // C++'s parse errors go to stderr
    (void)quiet;
    if (size < 1) return 0;
    differ(data[0] & 1, data + 1, size - 1);
    return 0;
}
