/* syntax_internal.h: what the lexer, parser and printer share.
 *
 * The token and lexer types, the parser struct behind the opaque ptoc_parser
 * (with its SSA scopes and alias tables; their maps are ptoc_ptrmap), and the
 * internal entry points the parser files call in one another. Nothing outside
 * ir/lexer.c, ir/parse*.c and ir/printer.c includes this.
 */
#ifndef PTOC_IR_SYNTAX_INTERNAL_H
#define PTOC_IR_SYNTAX_INTERNAL_H

#include "ptoc/syntax.h"
#include "ptoc/util.h"

/* ---------------------------------------------------------------- tokens */

typedef enum ptoc_tok_kind {
    TOK_EOF, TOK_ERROR,
    TOK_BARE_ID,      /* foo, i32, pto.tadd */
    TOK_PERCENT_ID,   /* %x, %0 */
    TOK_CARET_ID,     /* ^bb0 */
    TOK_AT_ID,        /* @sym, @"quoted sym" */
    TOK_HASH_ID,      /* #alias, #pto.pipe, #1 (result number) */
    TOK_BANG_ID,      /* !alias, !pto.tile */
    TOK_INTEGER, TOK_FLOAT, TOK_STRING,
    TOK_LPAREN, TOK_RPAREN, TOK_LSQUARE, TOK_RSQUARE, TOK_LBRACE, TOK_RBRACE,
    TOK_LESS, TOK_GREATER, TOK_COMMA, TOK_COLON, TOK_COLON_COLON, TOK_EQUAL,
    TOK_ARROW, TOK_QUESTION, TOK_STAR, TOK_PLUS, TOK_PIPE, TOK_ELLIPSIS, TOK_MINUS,
} ptoc_tok_kind;

typedef struct ptoc_token {
    ptoc_tok_kind kind;
    size_t start, len;        /* the spelling, prefix and quotes included */
    uint32_t line, col;       /* of the first byte */
    const char *error;        /* TOK_ERROR: what is wrong */
} ptoc_token;

typedef struct ptoc_lexer {
    const char *buf;
    size_t len, pos;
    uint32_t line;            /* line of `pos`, already offset by first_line */
    size_t line_start;        /* offset of the first byte of that line */
} ptoc_lexer;

void ptoc_lex_init(ptoc_lexer *lx, const char *buf, size_t len, uint32_t first_line);
ptoc_token ptoc_lex_next(ptoc_lexer *lx);
/* Moves back to `pos`, which must lie on the lexer's current line. */
void ptoc_lex_reset(ptoc_lexer *lx, size_t pos);
/* From `pos` at a `<`, finds the matching `>` at character level (strings
 * respected, `->` skipped, nesting of <([{ checked, at most `max_depth` deep).
 * On success the lexer stands just after the `>` and *end is that offset. On
 * failure returns an error message and leaves *end at the offending byte. */
const char *ptoc_lex_balanced(ptoc_lexer *lx, size_t pos, uint32_t max_depth, size_t *end);
/* Is `c` allowed inside a bare identifier after its first character? */
bool ptoc_lex_is_id_char(int c);
bool ptoc_lex_is_bare_id(const char *s, size_t len);

/* ---------------------------------------------------------------- the parser */

/* What an SSA name is bound to in an isolated scope. */
typedef enum { SSA_ABSENT, SSA_FORWARD, SSA_DEFINED } ptoc_ssa_state;

typedef struct ptoc_ssa_entry {
    ptoc_ident *name;
    ptoc_ssa_state state;
    ptoc_value *first;        /* DEFINED: value #i is first + i (results are contiguous) */
    uint32_t n;               /* DEFINED: how many values */
    ptoc_loc def_loc;
    ptoc_value **fwd;         /* FORWARD: placeholders by result number (may hold NULLs) */
    uint32_t nfwd, fwd_cap;
    ptoc_loc fwd_loc;         /* FORWARD: first use */
} ptoc_ssa_entry;

/* The parser's growable lists live in its scratch arena. */
PTOC_VARR_DEF(ptoc_ssa_entry *, ssa_entry_varr)

/* One per isolated-from-above region tree (and one for the top level). */
typedef struct ptoc_ssa_scope {
    ptoc_ptrmap names;        /* ident -> ptoc_ssa_entry */
    ssa_entry_varr fwd;       /* entries that got forward references, in order */
    uint32_t unresolved;      /* entries currently FORWARD */
    struct ptoc_ssa_scope *outer;
} ptoc_ssa_scope;

/* A location alias used before its `#loc = loc(...)` definition. */
typedef struct ptoc_loc_fixup {
    ptoc_loc *target;
    ptoc_ident *alias;
    ptoc_loc use;
} ptoc_loc_fixup;
PTOC_VARR_DEF(ptoc_loc_fixup, loc_fixup_varr)

struct ptoc_parser {
    ptoc_context *ctx;
    ptoc_arena *arena;        /* the IR */
    ptoc_arena *scratch;      /* parser-lifetime data */
    ptoc_lexer lx;
    ptoc_token tok;           /* the next token */
    ptoc_loc hook_loc;        /* the `!`/`#` token of the dialect type or attribute being parsed */
    size_t prev_end;          /* end offset of the token before it */
    uint32_t prev_line, prev_col_end;
    ptoc_ident *file;
    uint32_t depth, max_depth;
    bool failed;
    ptoc_strbuf text;         /* scratch for unescaped strings */

    ptoc_ptrmap type_aliases, attr_aliases, loc_aliases;
    loc_fixup_varr fixups;

    ptoc_ssa_scope *scope;
    ssa_entry_varr defs;      /* names defined per region, innermost last */
    ptoc_ptrmap blocks;       /* ^name -> region serial number + 1 */
    uintptr_t region_serial;

    const char *asm_dialect;      /* ptoc_parse_options: assembly statements */
    bool assembly;
    const char *asm_hint;
    ptoc_ident *rebind;           /* ptoc_parser_rebind_to_result: name to rebind, or NULL */

    const ptoc_op_def *cur_def;   /* the op whose custom/generic body is being parsed */
    const char *default_dialect;  /* for op names without a dot; "" if none */
    ptoc_block *block;            /* where parsed ops go */
};

/* parser.c */
void ptoc_parser_advance(ptoc_parser *p);
ptoc_loc ptoc_parser_tok_loc(const ptoc_parser *p, const ptoc_token *t);
const char *ptoc_parser_tok_text(const ptoc_parser *p);
bool ptoc_parser_is(const ptoc_parser *p, ptoc_tok_kind k);
bool ptoc_parser_consume(ptoc_parser *p, ptoc_tok_kind k);
/* "expected X" at the end of the previous token when the next one is on a
 * later line (as MLIR does), else at the next token. Returns false. */
bool ptoc_parser_expected(ptoc_parser *p, const char *what);
bool ptoc_parser_enter(ptoc_parser *p);   /* depth + 1; false (with error) past the limit */
void ptoc_parser_leave(ptoc_parser *p);
/* Unescapes the string token `t` into p->text; false on a bad escape. */
bool ptoc_parser_unescape(ptoc_parser *p, const ptoc_token *t, size_t skip);
ptoc_ident *ptoc_parser_ident(ptoc_parser *p, size_t start, size_t len);
/* Unsigned magnitude of an integer token; false (with error) if it overflows. */
bool ptoc_parser_int_value(ptoc_parser *p, uint64_t *out);
/* The raw `<...>` body (or nothing) right after an `!x`/`#x` token; the ident
 * holds `prefix` + body text. */
bool ptoc_parser_raw_body(ptoc_parser *p, const char *prefix, size_t plen, ptoc_ident **out);

/* What differs between dialect types (`!`) and attributes (`#`) for
 * ptoc_parse_dialect_sym; one row each in parse_types.c and parse_attrs.c. */
typedef struct ptoc_sym_kind {
    char sigil;
    const char *what;                         /* "type", "attribute" */
    size_t aliases;                           /* offsetof the alias map in ptoc_parser */
    bool (*has_hook)(const ptoc_dialect *d);
    void *(*hook)(const ptoc_dialect *d, ptoc_parser *p, ptoc_ident *mnemonic, bool enclosed);
    void *(*opaque)(ptoc_context *ctx, ptoc_ident *dialect, ptoc_ident *body);
} ptoc_sym_kind;
/* The current `!...`/`#...` token: an alias, a registered dialect's type or
 * attribute (through its hook), or opaque text of an unregistered dialect. */
bool ptoc_parse_dialect_sym(ptoc_parser *p, const ptoc_sym_kind *k, void **out);

/* parse_ops.c */
bool ptoc_parse_operation(ptoc_parser *p);      /* one op, appended to p->block */
void ptoc_parser_push_isolated(ptoc_parser *p);  /* a fresh SSA name scope */
bool ptoc_parser_pop_isolated(ptoc_parser *p);   /* false if a name stayed undeclared */

/* parse_types.c */
bool ptoc_parser_is_type_start(ptoc_parser *p);
bool ptoc_parser_is_type_keyword(const char *s, size_t len);

/* parse_attrs.c: locations */
/* `loc(...)` if present. On success *loc is set (unchanged if the location has no
 * file:line:col); *alias is a location alias not yet defined, or NULL. */
bool ptoc_parse_optional_location(ptoc_parser *p, ptoc_loc *loc, ptoc_ident **alias);
bool ptoc_parser_is_loc(ptoc_parser *p);
void ptoc_parser_add_fixup(ptoc_parser *p, ptoc_loc *target, ptoc_ident *alias, ptoc_loc use);

/* printer.c helpers used by the parser for messages ("expects 'i32'") */
const char *ptoc_syntax_type_str(ptoc_context *ctx, ptoc_strbuf *sb, const ptoc_type *t);

#endif
