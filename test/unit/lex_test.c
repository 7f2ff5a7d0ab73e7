/* lex_test.c: the lexer: every token kind, numbers, escapes, comments, BOM, CRLF, error positions. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "lex.h"
#include "parse.h"
#include "front_util.h"

/* The kinds of every token of src (whitespace and newlines skipped), 0-terminated. */
static int lex_kinds(const char *src, int *kinds, int max, lex_token *toks)
{
    lexer lx;
    int n = 0;
    lex_init(&lx, front_diag(), "t.proto", src, strlen(src));
    for (;;) {
        lex_token t;
        int k = lex_next(&lx, &t);
        if (k == LEX_WS || k == LEX_NEWLINE) continue;
        if (n < max) { kinds[n] = k; if (toks) toks[n] = t; n++; }
        if (k == LEX_EOF) return n;
    }
}

static void test_symbols(void **state)
{
    (void)state;
    int k[32];
    int n = lex_kinds("; { } ( ) [ ] < > = , . - : + @", k, 32, NULL);
    const int want[] = { TK_SEMI, TK_LBRACE, TK_RBRACE, TK_LPAREN, TK_RPAREN, TK_LBRACKET, TK_RBRACKET, TK_LT,
                         TK_GT, TK_EQ, TK_COMMA, TK_DOT, TK_MINUS, TK_SYMBOL, TK_SYMBOL, TK_SYMBOL, LEX_EOF };
    assert_int_equal(n, (int)(sizeof want / sizeof *want));
    for (int i = 0; i < n; i++) assert_int_equal(k[i], want[i]);
}

static void test_keywords_and_identifiers(void **state)
{
    (void)state;
    int k[40];
    const char *src = "syntax edition import weak public package option message enum service rpc returns "
                      "stream extend extensions reserved to max oneof map optional required repeated group "
                      "messages _x int32 string inf nan Message a_b9";
    const int want[] = { TK_SYNTAX, TK_EDITION, TK_IMPORT, TK_WEAK, TK_PUBLIC, TK_PACKAGE, TK_OPTION, TK_MESSAGE,
                         TK_ENUM, TK_SERVICE, TK_RPC, TK_RETURNS, TK_STREAM, TK_EXTEND, TK_EXTENSIONS, TK_RESERVED,
                         TK_TO, TK_MAX, TK_ONEOF, TK_MAP, TK_OPTIONAL, TK_REQUIRED, TK_REPEATED, TK_GROUP,
                         TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT, TK_IDENT, LEX_EOF };
    int n = lex_kinds(src, k, 40, NULL);
    assert_int_equal(n, (int)(sizeof want / sizeof *want));
    for (int i = 0; i < n; i++) assert_int_equal(k[i], want[i]);
}

static void test_numbers(void **state)
{
    (void)state;
    int k[32];
    lex_token t[32];
    int n = lex_kinds("0 7 017 0x1F 0XaB 123 1.5 .5 5. 1e10 1E-3 2.5e+2 0.0", k, 32, t);
    const int want[] = { TK_INT, TK_INT, TK_INT, TK_INT, TK_INT, TK_INT, TK_FLOAT, TK_FLOAT, TK_FLOAT,
                         TK_FLOAT, TK_FLOAT, TK_FLOAT, TK_FLOAT, LEX_EOF };
    assert_int_equal(n, (int)(sizeof want / sizeof *want));
    for (int i = 0; i < n; i++) assert_int_equal(k[i], want[i]);
    uint64_t v;
    assert_true(lex_parse_int(t[2].p, t[2].len, &v)); assert_int_equal(v, 15);
    assert_true(lex_parse_int(t[3].p, t[3].len, &v)); assert_int_equal(v, 31);
    assert_true(lex_parse_int(t[4].p, t[4].len, &v)); assert_int_equal(v, 171);
    assert_true(lex_parse_int(t[5].p, t[5].len, &v)); assert_int_equal(v, 123);
    assert_true(lex_parse_int("18446744073709551615", 20, &v)); assert_true(v == UINT64_MAX);
    assert_false(lex_parse_int("18446744073709551616", 20, &v));
    assert_false(lex_parse_int("0x10000000000000000", 19, &v));
}

/* The decoded bytes of one string token. */
static lex_buf decode(const char *src)
{
    int k[4];
    lex_token t[4];
    assert_int_equal(lex_kinds(src, k, 4, t), 2);
    assert_int_equal(k[0], TK_STRING);
    lex_buf b = { .pool = front_pool() };
    lex_string_append(&b, t[0].p, t[0].len);
    return b;
}

static void test_string_escapes(void **state)
{
    (void)state;
    lex_buf b = decode("\"\\a\\b\\f\\n\\r\\t\\v\\\\\\'\\\"\\?\"");
    assert_int_equal(b.n, 11);
    assert_memory_equal(b.p, "\a\b\f\n\r\t\v\\'\"?", 11);
    b = decode("'\\x41\\x4a\\x7e\\101\\0\\7\\377q'");   /* hex (1-2 digits), octal (1-3 digits) */
    assert_int_equal(b.n, 8);
    assert_memory_equal(b.p, "AJ~A\0\a\377q", 8);
    b = decode("\"\\u00e9\\u20AC\\U0001F600\"");   /* UTF-8 of U+00E9, U+20AC, U+1F600 */
    assert_int_equal(b.n, 9);
    assert_memory_equal(b.p, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9);
    b = decode("\"\\ud83d\\ude00\"");             /* a surrogate pair is one code point */
    assert_int_equal(b.n, 4);
    assert_memory_equal(b.p, "\xf0\x9f\x98\x80", 4);
    b = decode("'it\"s'");
    assert_string_equal(b.p, "it\"s");
    b = decode("\"caf\xc3\xa9\"");                /* UTF-8 passes through */
    assert_string_equal(b.p, "caf\xc3\xa9");
}

static void test_comments_tokens(void **state)
{
    (void)state;
    lexer lx;
    lex_token t;
    const char *src = "a // line\n/* block\n * two */ b";
    lex_init(&lx, front_diag(), "t.proto", src, strlen(src));
    assert_int_equal(lex_next(&lx, &t), TK_IDENT);
    assert_int_equal(lex_next(&lx, &t), LEX_WS);
    assert_int_equal(lex_next(&lx, &t), LEX_LINE_COMMENT);
    assert_int_equal(t.len, 7);
    assert_int_equal(lex_next(&lx, &t), LEX_NEWLINE);
    assert_int_equal(lex_next(&lx, &t), LEX_BLOCK_COMMENT);
    assert_int_equal(t.loc.line, 2);
    assert_int_equal(t.len, 18);
    assert_int_equal(lex_next(&lx, &t), LEX_WS);
    assert_int_equal(lex_next(&lx, &t), TK_IDENT);
    assert_int_equal(t.loc.line, 3);
    assert_int_equal(t.loc.col, 11);
}

static void test_bom_and_crlf(void **state)
{
    (void)state;
    int k[8];
    lex_token t[8];
    int n = lex_kinds("\xEF\xBB\xBFsyntax\r\n  x\r\n\ty", k, 8, t);
    assert_int_equal(n, 4);
    assert_int_equal(k[0], TK_SYNTAX);
    assert_int_equal(t[0].loc.line, 1);
    assert_int_equal(t[0].loc.col, 1);
    assert_int_equal(t[1].loc.line, 2);
    assert_int_equal(t[1].loc.col, 3);
    assert_int_equal(t[2].loc.line, 3);
    assert_int_equal(t[2].loc.col, 2);
}

/* The first diagnostic line from lexing src to the end. */
static char *lex_error_of(const char *src)
{
    int k[64];
    *front_diag() = (diag_counts){ 0 };
    capture_begin();
    lex_kinds(src, k, 64, NULL);
    char *e = capture_end();
    assert_true(front_diag()->errors > 0);
    return first_line(e);
}

static void test_errors_with_positions(void **state)
{
    (void)state;
    assert_string_equal(lex_error_of("x = \"abc"), "t.proto:1:5: error: string literal not terminated before the end of the file");
    assert_string_equal(lex_error_of("x\n = 'abc\n'"), "t.proto:2:4: error: string literal not terminated before the end of the line");
    {
        const char nul[] = "x = \"a\0b\";";   /* a NUL inside the text, not its end */
        lexer lx;
        lex_token tok;
        *front_diag() = (diag_counts){ 0 };
        capture_begin();
        lex_init(&lx, front_diag(), "t.proto", nul, sizeof nul - 1);
        while (lex_next(&lx, &tok) != LEX_EOF) {}
        assert_string_equal(first_line(capture_end()), "t.proto:1:7: error: NUL character in a string literal");
    }
    assert_string_equal(lex_error_of("\"a\\qb\""), "t.proto:1:4: error: invalid escape sequence in string literal");
    assert_string_equal(lex_error_of("\"\\xg\""), "t.proto:1:4: error: expected hex digits for \\x escape sequence");
    assert_string_equal(lex_error_of("\"\\u12\""), "t.proto:1:6: error: expected four hex digits for \\u escape sequence");
    assert_string_equal(lex_error_of("\"\\U00200000\""), "t.proto:1:6: error: expected eight hex digits up to 10ffff for \\U escape sequence");
    assert_string_equal(lex_error_of("a\n  /* open"), "t.proto:2:10: error: block comment not terminated before the end of the file (it starts at line 2)");
    assert_string_equal(lex_error_of("/* a /* b */"), "t.proto:1:6: error: \"/*\" inside block comment; block comments cannot be nested");
    assert_string_equal(lex_error_of("x = 08;"), "t.proto:1:5: error: numbers starting with leading zero must be in octal");
    assert_string_equal(lex_error_of("x = 0x;"), "t.proto:1:5: error: \"0x\" must be followed by hex digits");
    assert_string_equal(lex_error_of("x = 1e;"), "t.proto:1:5: error: \"e\" must be followed by exponent");
    assert_string_equal(lex_error_of("x = 12abc;"), "t.proto:1:7: error: need space between number and identifier");
    assert_string_equal(lex_error_of("x = 0x1.5;"), "t.proto:1:8: error: hex and octal numbers must be integers");
    assert_string_equal(lex_error_of("x = 1.5.2;"), "t.proto:1:8: error: already saw decimal point or exponent; can't have another one");
    assert_string_equal(lex_error_of("a\n\tb \x01"), "t.proto:2:4: error: invalid control character in the source");
    assert_string_equal(lex_error_of("a \xc3\xa9"), "t.proto:1:3: error: non-ASCII character outside a string or comment");
}

/* The caret line lines up under the column, tabs kept. */
static void test_caret_keeps_tabs(void **state)
{
    (void)state;
    *front_diag() = (diag_counts){ 0 };
    capture_begin();
    int k[8];
    lex_kinds("\t\tx = \"open", k, 8, NULL);
    char *e = capture_end();
    assert_string_equal(e, "t.proto:1:7: error: string literal not terminated before the end of the file\n"
                           "\t\tx = \"open\n"
                           "\t\t    ^\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symbols),
        cmocka_unit_test(test_keywords_and_identifiers),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_string_escapes),
        cmocka_unit_test(test_comments_tokens),
        cmocka_unit_test(test_bom_and_crlf),
        cmocka_unit_test(test_errors_with_positions),
        cmocka_unit_test(test_caret_keeps_tabs),
    };
    return cmocka_run_group_tests(tests, front_begin, front_end);
}
