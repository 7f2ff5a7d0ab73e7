/* parser.c: drives lexer and grammar over one file, attaching comments as protoc does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parser.h"
#include "irbuild.h"
#include "lex.h"
#include "parse.h"
#include "diag.h"
#include "srcinfo.h"

/* The lemon-generated parser (parse.c). */
void *pbjParseAlloc(void *(*alloc)(size_t));
void pbjParse(void *parser, int kind, ptok tok, pctx *ctx);
void pbjParseFree(void *parser, void (*release)(void *));
void pbjParseErrorsResume(void *parser);

/* ---- comments: protoc's tokenizer rules (Tokenizer::NextWithComments) ------- */

/* What lies between two grammar tokens: whitespace, newlines, comments. */
typedef struct gap_item {
    int kind;
    const char *p;
    uint32_t len;
    ir_loc loc;
    size_t raw;              /* index in file->comments, for comments */
} gap_item;

typedef struct comment_group {
    lex_buf text;
    bool has, is_line;
    size_t raw_first, raw_n;
    ir_loc loc;
} comment_group;

/* The comments around one gap: after a declaration's end (trailing), in between
 * (detached), and before the next token (leading). */
typedef struct collector {
    comment_group buf;
    bool can_attach_prev;
    lex_buf trailing;
    bool has_trailing;
    IR_VEC(const char *) detached;
    ir_pool *pool;               /* the file's: where the texts grow */
} collector;

static void put(lex_buf *b, const char *s, size_t n)
{
    lex_buf tmp = *b;
    if (tmp.n + n + 1 > tmp.cap) {
        tmp.cap = (tmp.n + n + 1) * 2;
        tmp.p = ir_pool_alloc(b->pool, tmp.cap);
        if (b->n) memcpy(tmp.p, b->p, b->n);
    }
    memcpy(tmp.p + tmp.n, s, n);
    tmp.n += n;
    tmp.p[tmp.n] = '\0';
    *b = tmp;
}

/* A line comment's text as protoc keeps it: after "//", with its newline. */
static void line_comment_text(lex_buf *b, const gap_item *it, bool newline)
{
    put(b, it->p + 2, it->len - 2);
    if (newline) put(b, "\n", 1);
}

/* A block comment's text as protoc keeps it: each later line without its
 * leading blanks and '*'. */
static void block_comment_text(lex_buf *b, const gap_item *it)
{
    const char *p = it->p + 2, *end = it->p + it->len;
    if (end - p >= 2 && end[-2] == '*' && end[-1] == '/') end -= 2;
    put(b, "", 0);
    while (p < end) {
        if (*p == '\n') {
            put(b, "\n", 1);
            p++;
            while (p < end && strchr(" \t\r\v\f", *p)) p++;
            if (p < end && *p == '*') p++;
            continue;
        }
        put(b, p++, 1);
    }
}

static void flush(collector *c)
{
    if (!c->buf.has) return;
    if (c->can_attach_prev) {
        put(&c->trailing, c->buf.text.p, c->buf.text.n);
        c->has_trailing = true;
        c->can_attach_prev = false;
    } else {
        ir_pool_vec_push(c->pool, &c->detached, c->buf.text.p);
    }
    c->buf.has = false;
}

static void take(collector *c, const gap_item *it, bool line, bool newline)
{
    if (c->buf.has && (!line || !c->buf.is_line)) flush(c);
    if (!c->buf.has) {
        c->buf.text = (lex_buf){ .pool = c->pool };
        c->buf.raw_first = it->raw;
        c->buf.raw_n = 0;
        c->buf.loc = it->loc;
    }
    c->buf.has = true;
    c->buf.is_line = line;
    c->buf.raw_n++;
    if (line) line_comment_text(&c->buf.text, it, newline);
    else block_comment_text(&c->buf.text, it);
}

static size_t skip_ws(const gap_item *g, size_t n, size_t i)
{
    while (i < n && g[i].kind == LEX_WS) i++;
    return i;
}

/* Sort the comments of one gap; at_start: the gap before the file's first token.
 * next_kind: the token after the gap (0 at the end of the file). */
/* An empty collector whose texts grow in pool. */
static void collector_reset(collector *c, ir_pool *pool)
{
    memset(c, 0, sizeof *c);
    c->pool = pool;
    c->trailing.pool = pool;
}

static void collect(collector *c, ir_pool *pool, const gap_item *g, size_t n, bool at_start, int next_kind)
{
    size_t i = 0;
    collector_reset(c, pool);
    c->can_attach_prev = !at_start;
    if (!at_start) {
        i = skip_ws(g, n, i);
        if (i < n && g[i].kind == LEX_LINE_COMMENT) {
            bool nl = i + 1 < n && g[i + 1].kind == LEX_NEWLINE;
            take(c, &g[i], true, nl);
            i += 1 + nl;
            flush(c);
        } else if (i < n && g[i].kind == LEX_BLOCK_COMMENT) {
            take(c, &g[i], false, false);
            i = skip_ws(g, n, i + 1);
            if (i == n || g[i].kind != LEX_NEWLINE) { collector_reset(c, pool); return; }  /* token on the same line */
            i++;
            flush(c);
        } else if (i < n && g[i].kind == LEX_NEWLINE) {
            i++;
        } else {
            return;   /* the next token is on the same line */
        }
    }
    for (;;) {
        i = skip_ws(g, n, i);
        if (i == n) break;
        if (g[i].kind == LEX_LINE_COMMENT) {
            bool nl = i + 1 < n && g[i + 1].kind == LEX_NEWLINE;
            take(c, &g[i], true, nl);
            i += 1 + nl;
        } else if (g[i].kind == LEX_BLOCK_COMMENT) {
            take(c, &g[i], false, false);
            i = skip_ws(g, n, i + 1);
            if (i < n && g[i].kind == LEX_NEWLINE) i++;
        } else {   /* a blank line */
            flush(c);
            c->can_attach_prev = false;
            i++;
        }
    }
    if (next_kind == 0 || next_kind == TK_RBRACE || next_kind == TK_RBRACKET || next_kind == TK_RPAREN) flush(c);
}

/* ---- the driver ------------------------------------------------------------------- */

typedef struct driver {
    pctx ctx;
    lexer lx;
    IR_VEC(gap_item) gap;
    const char *upcoming_doc;                /* protoc's upcoming_doc_comments_ */
    ir_loc upcoming_loc;
    size_t upcoming_raw, upcoming_raw_n;
    IR_VEC(const char *) upcoming_detached;
    int prev_kind;                           /* the grammar token before the current one */
} driver;

static bool is_trivia(int k) { return k == LEX_WS || k == LEX_NEWLINE || k == LEX_LINE_COMMENT || k == LEX_BLOCK_COMMENT; }

/* The next token the grammar sees; whitespace and comments before it go to d->gap. */
static void next_token(driver *d, lex_token *t)
{
    d->gap.n = 0;
    for (;;) {
        int k = lex_next(&d->lx, t);
        if (k == LEX_ERROR) continue;
        if (!is_trivia(k)) return;
        gap_item it = { k, t->p, t->len, t->loc, 0 };
        if (k == LEX_LINE_COMMENT || k == LEX_BLOCK_COMMENT) {
            ir_raw_comment rc = { ir_pool_strndup(d->ctx.file->pool, t->p, t->len), t->loc, NULL, NULL };
            it.raw = d->ctx.file->comments.n;
            ir_pool_vec_push(d->ctx.file->pool, &d->ctx.file->comments, rc);
            ir_pool_vec_push(d->ctx.file->pool, &d->ctx.comment_offsets, (size_t)(t->p - d->lx.src));
        }
        ir_pool_vec_push(d->ctx.file->pool, &d->gap, it);
    }
}

/* The comments after an end of declaration (';', '{', '}') as protoc's parser
 * hands them out: the declaration gets the leading comment saved at the
 * previous end, the detached ones saved then, and the trailing one after it. */
static void attach(driver *d, int kind, bool empty_statement, pcomments *pc, const collector *c)
{
    if (kind != TK_RBRACE && !empty_statement && pc) {
        pc->leading = d->upcoming_doc;
        pc->leading_loc = d->upcoming_loc;
        pc->leading_raw = d->upcoming_raw;
        pc->leading_raw_n = d->upcoming_raw_n;
        pc->trailing = c->has_trailing ? c->trailing.p : NULL;
        for (size_t i = 0; i < d->upcoming_detached.n; i++) ir_pool_vec_push(d->ctx.file->pool, &pc->detached, d->upcoming_detached.v[i]);
    }
    if (!empty_statement) d->upcoming_detached.n = 0;
    for (size_t i = 0; i < c->detached.n; i++) ir_pool_vec_push(d->ctx.file->pool, &d->upcoming_detached, c->detached.v[i]);
    d->upcoming_doc = c->buf.has ? c->buf.text.p : NULL;
    d->upcoming_loc = c->buf.loc;
    d->upcoming_raw = c->buf.raw_first;
    d->upcoming_raw_n = c->buf.has ? c->buf.raw_n : 0;
}

static bool ends_declaration(int k) { return k == TK_SEMI || k == TK_LBRACE || k == TK_RBRACE; }

/* "{ ... }" after '=' is a text-format value: its tokens joined by spaces, as protoc keeps it,
 * each token's span and position in *tokens. Returns where it ends in the source (one past its '}'). */
static ir_loc read_aggregate(driver *d, lex_token *t, ptok *tokens)
{
    lex_buf text = { .pool = d->ctx.file->pool };
    IR_VEC(ir_token) spans = { 0 };
    ir_loc at = t->loc;
    int depth = 1;
    put(&text, "", 0);
    for (;;) {
        next_token(d, t);
        if (t->kind == LEX_EOF) {
            diag_error(d->ctx.file, at, "aggregate value not closed before the end of the file");
            d->ctx.errors++;
            return t->loc;
        }
        if (t->kind == TK_LBRACE) depth++;
        if (t->kind == TK_RBRACE && --depth == 0) break;
        if (text.n) put(&text, " ", 1);
        ir_pool_vec_push(d->ctx.file->pool, &spans, ((ir_token){ (uint32_t)text.n, t->len, t->loc }));
        put(&text, t->p, t->len);
    }
    tokens->tokens = spans.v;
    tokens->n_tokens = spans.n;
    ir_loc end = { t->loc.line, t->loc.col + 1 };
    t->kind = TK_AGGREGATE;
    t->p = text.p;
    t->len = (uint32_t)text.n;
    t->loc = at;
    return end;
}

/* After a syntax error, protoc's SkipStatement: resume after the next ';', after a
 * whole "{...}" block, or before a '}'. The grammar has "statement ::= error ';'" in
 * every block, so the driver ends the broken statement with a ';' of its own. */
typedef enum recovery { RUNNING, SKIPPING, SKIPPING_BLOCK } recovery;

typedef struct feeder {
    void *parser;
    driver *d;
    recovery mode;
    int depth;                               /* SKIPPING_BLOCK: braces open */
} feeder;

static void feed_raw(feeder *fd, const ptok *tok)
{
    pbjParse(fd->parser, tok->kind, *tok, &fd->d->ctx);
}

/* End the broken statement: an invented ';' completes "error ';'", and errors count again. */
static void resume(feeder *fd, const ptok *at)
{
    ptok semi = { ";", 1, TK_SEMI, at->loc, NULL, NULL, 0 };
    feed_raw(fd, &semi);
    pbjParseErrorsResume(fd->parser);
    fd->mode = RUNNING;
}

/* Give one token to the grammar, or skip it while recovering from an error. */
static void feed(feeder *fd, const ptok *tok)
{
    if (fd->mode == SKIPPING_BLOCK) {
        if (tok->kind == TK_LBRACE) fd->depth++;
        else if (tok->kind == TK_RBRACE && --fd->depth == 0) resume(fd, tok);
        else if (tok->kind == LEX_EOF) feed_raw(fd, tok);
        return;
    }
    if (fd->mode == SKIPPING) {
        if (tok->kind == TK_SEMI) { feed_raw(fd, tok); pbjParseErrorsResume(fd->parser); fd->mode = RUNNING; }
        else if (tok->kind == TK_LBRACE) { fd->mode = SKIPPING_BLOCK; fd->depth = 1; }
        else if (tok->kind == TK_RBRACE) { resume(fd, tok); feed_raw(fd, tok); }
        else if (tok->kind == LEX_EOF) feed_raw(fd, tok);
        return;
    }
    int errors = fd->d->ctx.syntax_errors;
    feed_raw(fd, tok);
    if (fd->d->ctx.syntax_errors == errors) return;
    /* tok did not parse: the grammar shifted "error" and dropped tok unless it was ';' */
    switch (tok->kind) {
    case TK_SEMI: pbjParseErrorsResume(fd->parser); break;
    case TK_LBRACE: fd->mode = SKIPPING_BLOCK; fd->depth = 1; break;
    case TK_RBRACE:
        resume(fd, tok);
        errors = fd->d->ctx.syntax_errors;
        feed_raw(fd, tok);                   /* the '}' closes the block again, if one is open */
        if (fd->d->ctx.syntax_errors != errors) resume(fd, tok);   /* an unmatched '}': dropped */
        break;
    case LEX_EOF: break;
    default: fd->mode = SKIPPING; break;
    }
}

ir_file *parser_parse(const ir_program *prog, const char *name, const char *path, const char *text, size_t len)
{
    int errors_before = prog->diag->errors;
    ir_file *f = ir_file_new(prog->pool, prog->diag, name, path, text, len);
    driver *d = calloc(1, sizeof *d);
    if (!d) abort();
    pctx_init(&d->ctx, f);
    lex_init(&d->lx, f->diag, path ? path : name, text, len);
    feeder fd = { pbjParseAlloc(malloc), d, RUNNING, 0 };
    pcomments *pending = NULL;               /* of the last ';' '{' '}' given to the grammar */
    int pending_kind = -1;                   /* -1: the start of the file */
    bool pending_empty = false;
    lex_token t;
    for (;;) {
        next_token(d, &t);
        if (d->ctx.closed_enum) pb_enum_validate(&d->ctx, t.loc);             /* its '}' reduced it */
        ir_loc end = { t.loc.line, t.loc.col + t.len };
        ptok spans = { 0 };
        if (t.kind == TK_LBRACE && d->prev_kind == TK_EQ) end = read_aggregate(d, &t, &spans);
        if (pending_kind != 0) {
            collector c;
            collect(&c, f->pool, d->gap.v, d->gap.n, pending_kind < 0, t.kind);
            attach(d, pending_kind, pending_empty, pending, &c);
            pending_kind = 0;
        }
        ptok tok = { t.p, t.len, t.kind, t.loc, NULL, spans.tokens, spans.n_tokens };
        if (ends_declaration(t.kind)) {
            tok.c = ir_pool_alloc(f->pool, sizeof *tok.c);
            pending = tok.c;
            pending_kind = t.kind;
            pending_empty = t.kind == TK_SEMI && (d->prev_kind <= 0 || ends_declaration(d->prev_kind));
        }
        if (prog->keep_tokens) srcinfo_token(f, &tok, end);    /* the end of the file last */
        feed(&fd, &tok);
        if (d->ctx.closed_enum && d->ctx.closed_enum_end != t.p) pb_enum_validate(&d->ctx, t.loc);  /* t reduced it */
        if (t.kind == LEX_EOF || d->ctx.stop) break;
        d->prev_kind = t.kind;
    }
    pbjParseFree(fd.parser, free);
    pctx_finish(&d->ctx);
    if (!f->syntax_explicit && f->diag->errors == errors_before)
        diag_warning(f, (ir_loc){ 0, 0 }, "no syntax specified; defaulting to proto2 (write syntax = \"proto2\"; or syntax = \"proto3\";)");
    f->parsed_ok = f->diag->errors == errors_before;
    free(d);
    return f;
}
