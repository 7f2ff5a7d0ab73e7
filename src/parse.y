/* parse.y: the .proto grammar (lemon); every action is one call into the builder (irbuild.c). */

%name pbjParse
%token_prefix TK_
%token_type {ptok}
%extra_argument {pctx *ctx}
%start_symbol file
%stack_size 0

%include {
#include <assert.h>
#include <stdlib.h>
#include "irbuild.h"
}

/* Terminals, in a fixed order (the lexer returns these codes). */
%token SEMI LBRACE RBRACE LPAREN RPAREN LBRACKET RBRACKET LT GT EQ COMMA DOT MINUS SYMBOL
       INT FLOAT STRING AGGREGATE IDENT.
%token SYNTAX EDITION IMPORT WEAK PUBLIC PACKAGE OPTION MESSAGE ENUM SERVICE RPC RETURNS
       STREAM EXTEND EXTENSIONS RESERVED TO MAX ONEOF MAP OPTIONAL REQUIRED REPEATED GROUP EXPORT LOCAL.

/* Keywords are identifiers wherever the keyword would not parse (as protoc reads them). */
%fallback IDENT SYNTAX EDITION IMPORT WEAK PUBLIC PACKAGE OPTION MESSAGE ENUM SERVICE RPC
       RETURNS STREAM EXTEND EXTENSIONS RESERVED TO MAX ONEOF MAP OPTIONAL REQUIRED REPEATED GROUP EXPORT LOCAL.

%syntax_error {
    int expected[YYNTOKEN], n = 0;
    YYACTIONTYPE state = yypParser->yytos->stateno;
    YYACTIONTYPE ident_action = yy_find_shift_action(TK_IDENT, state);
    for (int t = 1; t < YYNTOKEN; t++) {
        if (t == YYERRORSYMBOL) continue;
        YYACTIONTYPE a = yy_find_shift_action((YYCODETYPE)t, state);
        if (a == YY_ERROR_ACTION) continue;
        if (t != TK_IDENT && yyFallback[t] == TK_IDENT && a == ident_action) continue;  /* only as an identifier */
        expected[n++] = t;
    }
    ptok found = yyminor;
    found.kind = yymajor;
    pctx_syntax_error(ctx, &found, expected, n);
}

%code {
/* The driver resynchronised on a statement boundary: report the next error at once
 * (lemon would stay quiet for three tokens). */
void pbjParseErrorsResume(void *parser) { ((yyParser *)parser)->yyerrcnt = -1; }
}

/* file ::= [syntax] statement* */
file ::= syntax stmts.
syntax ::= .
syntax ::= SYNTAX(K) EQ strlit(S) SEMI(E).          { pb_syntax(ctx, K, S, E); }
syntax ::= EDITION(K) EQ strlit(S) SEMI.            { pb_edition(ctx, K, S); }

stmts ::= .
stmts ::= stmts stmt.
stmt ::= SEMI.
stmt ::= import.
stmt ::= package.
stmt ::= option.
stmt ::= message.
stmt ::= enum.
stmt ::= service.
stmt ::= extend.
stmt ::= error SEMI.

/* import ::= "import" ["public" | "weak"] string ";" */
import ::= IMPORT(K) strlit(S) SEMI(E).             { pb_import(ctx, K, NULL, S, E); }
import ::= IMPORT(K) PUBLIC(M) strlit(S) SEMI(E).   { pb_import(ctx, K, &M, S, E); }
import ::= IMPORT(K) WEAK(M) strlit(S) SEMI(E).     { pb_import(ctx, K, &M, S, E); }
import ::= IMPORT(K) OPTION(M) strlit(S) SEMI(E).   { pb_import(ctx, K, &M, S, E); }

/* package ::= "package" ident ("." ident)* ";" */
package ::= PACKAGE(K) dotted(N) SEMI(E).           { pb_package(ctx, K, N, E); }

%type dotted {pname}
dotted(A) ::= IDENT(T).                             { A = pb_name(ctx, T); }
dotted(A) ::= dotted(X) DOT IDENT(T).               { A = pb_name_append(ctx, X, T); }

/* type ::= ["."] ident ("." ident)*   (scalar keywords are told apart by the builder) */
%type type {pname}
type(A) ::= IDENT(T).                               { A = pb_name(ctx, T); }
type(A) ::= MAP(T).                                 { A = pb_name(ctx, T); }
type(A) ::= DOT(D) IDENT(T).                        { A = pb_name_dot(ctx, D, T); }
type(A) ::= type(X) DOT IDENT(T).                   { A = pb_name_append(ctx, X, T); }

/* string ::= STRING+   (adjacent literals are one string) */
%type strlit {pname}
strlit(A) ::= STRING(T).                            { A = pb_string(ctx, T); }
strlit(A) ::= strlit(X) STRING(T).                  { A = pb_string_append(ctx, X, T); }

/* option ::= "option" optname "=" value ";" */
option ::= OPTION optname(N) EQ value(V) SEMI(E).   { pb_option(ctx, N, V, E); }

/* optname ::= part ("." part)*    part ::= ident | "(" type ")" */
%type optname {ir_option *}
optname(A) ::= IDENT(T).                            { A = pb_optname(ctx, NULL, pb_name(ctx, T), false); }
optname(A) ::= LPAREN type(T) RPAREN.               { A = pb_optname(ctx, NULL, T, true); }
optname(A) ::= optname(X) DOT IDENT(T).             { A = pb_optname(ctx, X, pb_name(ctx, T), false); }
optname(A) ::= optname(X) DOT LPAREN type(T) RPAREN. { A = pb_optname(ctx, X, T, true); }

/* value ::= ["-"] (ident | int | float) | string | "{" text format "}" */
%type value {ir_value *}
value(A) ::= IDENT(T).                              { A = pb_value(ctx, IR_VAL_IDENT, T, NULL); }
value(A) ::= MINUS(M) IDENT(T).                     { A = pb_value(ctx, IR_VAL_IDENT, T, &M); }
value(A) ::= INT(T).                                { A = pb_value(ctx, IR_VAL_INT, T, NULL); }
value(A) ::= MINUS(M) INT(T).                       { A = pb_value(ctx, IR_VAL_INT, T, &M); }
value(A) ::= FLOAT(T).                              { A = pb_value(ctx, IR_VAL_FLOAT, T, NULL); }
value(A) ::= MINUS(M) FLOAT(T).                     { A = pb_value(ctx, IR_VAL_FLOAT, T, &M); }
value(A) ::= AGGREGATE(T).                          { A = pb_value(ctx, IR_VAL_AGGREGATE, T, NULL); }
value(A) ::= strlit(S).                             { A = pb_value_string(ctx, S); }

/* options ::= "[" optname "=" value ("," optname "=" value)* "]" */
options ::= .
options ::= LBRACKET option_list RBRACKET.
option_list ::= bracket_option.
option_list ::= option_list COMMA bracket_option.
bracket_option ::= optname(N) EQ value(V).          { pb_bracket_option(ctx, N, V); }

/* message ::= "message" ident "{" message_statement* "}" */
message ::= message_head message_body RBRACE(E).    { pb_block_end(ctx, E); }
message_head ::= MESSAGE IDENT(N) LBRACE(B).        { pb_message_begin(ctx, N, B); }
message_head ::= visibility(V) MESSAGE IDENT(N) LBRACE(B). { pb_message_begin(ctx, N, B); pb_visibility(ctx, V); }

/* visibility ::= "export" | "local"   (edition 2024) */
%type visibility {ptok}
visibility(A) ::= EXPORT(T).                        { A = T; }
visibility(A) ::= LOCAL(T).                         { A = T; }
message_body ::= .
message_body ::= message_body message_stmt.
message_stmt ::= SEMI.
message_stmt ::= message.
message_stmt ::= enum.
message_stmt ::= extend.
message_stmt ::= option.
message_stmt ::= oneof.
message_stmt ::= extensions.
message_stmt ::= reserved.
message_stmt ::= field.
message_stmt ::= error SEMI.

/* field ::= [label] type ident "=" int [options] ";"
 *         | "map" "<" type "," type ">" ident "=" int [options] ";"
 *         | [label] "group" ident "=" int [options] "{" message_statement* "}" */
field ::= field_head options SEMI(E).               { pb_field_end(ctx, E); }
field ::= group_head message_body RBRACE(E).        { pb_block_end(ctx, E); }
field_head ::= label(L) type(T) IDENT(N) EQ INT(V). { pb_field(ctx, &L, T, N, V); }
field_head ::= type(T) IDENT(N) EQ INT(V).          { pb_field(ctx, NULL, T, N, V); }
field_head ::= MAP(K) LT type(KT) COMMA type(VT) GT IDENT(N) EQ INT(V).
                                                    { pb_map_field(ctx, NULL, K, KT, VT, N, V); }
field_head ::= label(L) MAP(K) LT type(KT) COMMA type(VT) GT IDENT(N) EQ INT(V).
                                                    { pb_map_field(ctx, &L, K, KT, VT, N, V); }
group_head ::= group_field options LBRACE(B).       { pb_group_begin(ctx, B); }
group_field ::= label(L) GROUP(K) IDENT(N) EQ INT(V). { pb_group(ctx, &L, K, N, V); }
group_field ::= GROUP(K) IDENT(N) EQ INT(V).        { pb_group(ctx, NULL, K, N, V); }

%type label {ptok}
label(A) ::= OPTIONAL(T).                           { A = T; }
label(A) ::= REQUIRED(T).                           { A = T; }
label(A) ::= REPEATED(T).                           { A = T; }

/* oneof ::= "oneof" ident "{" (option | field)+ "}" */
oneof ::= oneof_head oneof_body RBRACE(E).          { pb_block_end(ctx, E); }
oneof_head ::= ONEOF IDENT(N) LBRACE(B).            { pb_oneof_begin(ctx, N, B); }
oneof_body ::= oneof_stmt.
oneof_body ::= oneof_body oneof_stmt.
oneof_stmt ::= option.
oneof_stmt ::= field.
oneof_stmt ::= error SEMI.

/* extensions ::= "extensions" ranges [options] ";"    ranges ::= range ("," range)* */
extensions ::= extensions_kw ranges options SEMI(E). { pb_ranges_end(ctx, E); }
extensions_kw ::= EXTENSIONS.                       { pb_ranges_begin(ctx, false); }

/* reserved ::= "reserved" (ranges | string ("," string)* | ident ("," ident)*) ";"  (identifiers: editions) */
reserved ::= reserved_kw ranges SEMI(E).            { pb_ranges_end(ctx, E); }
reserved ::= reserved_kw reserved_names SEMI(E).    { pb_ranges_end(ctx, E); }
reserved ::= reserved_kw reserved_idents SEMI(E).   { pb_ranges_end(ctx, E); }
reserved_kw ::= RESERVED.                           { pb_ranges_begin(ctx, true); }
reserved_names ::= strlit(S).                       { pb_reserved_name(ctx, S, true); }
reserved_names ::= reserved_names COMMA strlit(S).  { pb_reserved_name(ctx, S, false); }
reserved_idents ::= IDENT(N).                       { pb_reserved_ident(ctx, N, true); }
reserved_idents ::= reserved_idents COMMA IDENT(N). { pb_reserved_ident(ctx, N, false); }

ranges ::= range.
ranges ::= ranges COMMA range.
/* range ::= int ["to" (int | "max")] */
range ::= number(A).                                { pb_range(ctx, A, A); }
range ::= number(A) TO number(B).                   { pb_range(ctx, A, B); }
range ::= number(A) TO MAX(M).                      { pb_range(ctx, A, pb_max(ctx, M)); }
%type number {pnum}
number(A) ::= INT(T).                               { A = pb_num(ctx, T, NULL); }
number(A) ::= MINUS(M) INT(T).                      { A = pb_num(ctx, T, &M); }

/* enum ::= "enum" ident "{" (option | reserved | value | ";")* "}"
 * value ::= ident "=" ["-"] int [options] ";" */
enum ::= enum_head enum_body RBRACE(E).             { pb_block_end(ctx, E); }
enum_head ::= ENUM IDENT(N) LBRACE(B).              { pb_enum_begin(ctx, N, B); }
enum_head ::= visibility(V) ENUM IDENT(N) LBRACE(B). { pb_enum_begin(ctx, N, B); pb_visibility(ctx, V); }
enum_body ::= .
enum_body ::= enum_body enum_stmt.
enum_stmt ::= SEMI.
enum_stmt ::= option.
enum_stmt ::= reserved.
enum_stmt ::= enum_value options SEMI(E).           { pb_enum_value_end(ctx, E); }
enum_stmt ::= error SEMI.
enum_value ::= IDENT(N) EQ number(V).               { pb_enum_value(ctx, N, V); }

/* service ::= "service" ident "{" (option | rpc | ";")* "}"
 * rpc ::= "rpc" ident "(" ["stream"] type ")" "returns" "(" ["stream"] type ")" (";" | "{" (option | ";")* "}") */
service ::= service_head service_body RBRACE(E).    { pb_block_end(ctx, E); }
service_head ::= SERVICE IDENT(N) LBRACE(B).        { pb_service_begin(ctx, N, B); }
service_body ::= .
service_body ::= service_body service_stmt.
service_stmt ::= SEMI.
service_stmt ::= option.
service_stmt ::= rpc.
service_stmt ::= error SEMI.
rpc ::= rpc_head SEMI(E).                           { pb_method_end(ctx, E); }
rpc ::= rpc_head rpc_open rpc_body RBRACE(E).       { pb_block_end(ctx, E); }
rpc_open ::= LBRACE(B).                             { pb_method_body(ctx, B); }
rpc_head ::= RPC IDENT(N) LPAREN type(I) RPAREN RETURNS LPAREN type(O) RPAREN.
                                                    { pb_method(ctx, N, NULL, I, NULL, O); }
rpc_head ::= RPC IDENT(N) LPAREN STREAM(S) type(I) RPAREN RETURNS LPAREN type(O) RPAREN.
                                                    { pb_method(ctx, N, &S, I, NULL, O); }
rpc_head ::= RPC IDENT(N) LPAREN type(I) RPAREN RETURNS LPAREN STREAM(T) type(O) RPAREN.
                                                    { pb_method(ctx, N, NULL, I, &T, O); }
rpc_head ::= RPC IDENT(N) LPAREN STREAM(S) type(I) RPAREN RETURNS LPAREN STREAM(T) type(O) RPAREN.
                                                    { pb_method(ctx, N, &S, I, &T, O); }
rpc_body ::= .
rpc_body ::= rpc_body rpc_stmt.
rpc_stmt ::= SEMI.
rpc_stmt ::= option.
rpc_stmt ::= error SEMI.

/* extend ::= "extend" type "{" field+ "}" */
extend ::= extend_head extend_body RBRACE(E).       { pb_block_end(ctx, E); }
extend_head ::= EXTEND(K) type(T) LBRACE(B).        { pb_extend_begin(ctx, K, T, B); }
extend_body ::= extend_stmt.
extend_body ::= extend_body extend_stmt.
extend_stmt ::= field.
extend_stmt ::= error SEMI.
