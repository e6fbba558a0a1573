/* lexer.c: splits MLIR text into tokens.
 *
 * One token at a time, on demand: the parser keeps a single token of lookahead and
 * occasionally moves the lexer back inside a token it has seen (a dimension list
 * `4x8xf32` lexes as `4` and `x8xf32`, and the parser re-lexes from after the
 * `x`). Comments (`//` to end of line) and resource blocks (`{-# ... #-}`) are
 * skipped. Errors come back as TOK_ERROR tokens with a message; the lexer itself
 * never reports anything. Columns count bytes from 1.
 */
#include "ir/syntax_internal.h"

#include <string.h>

void ptoc_lex_init(ptoc_lexer *lx, const char *buf, size_t len, uint32_t first_line)
{
    lx->buf = buf;
    lx->len = len;
    lx->pos = 0;
    lx->line = first_line ? first_line : 1;
    lx->line_start = 0;
}

void ptoc_lex_reset(ptoc_lexer *lx, size_t pos) { lx->pos = pos; }

static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_hex(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

bool ptoc_lex_is_id_char(int c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$' || c == '.'; }

bool ptoc_lex_is_bare_id(const char *s, size_t len)
{
    if (len == 0 || !(is_alpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (size_t i = 1; i < len; i++)
        if (!ptoc_lex_is_id_char((unsigned char)s[i]))
            return false;
    return true;
}

/* The characters of a suffix id after `%`, `^`, `#`, `!`, `@`: MLIR also allows `-`. */
static bool is_suffix_char(int c) { return ptoc_lex_is_id_char(c) || c == '-'; }

static int peek_at(const ptoc_lexer *lx, size_t pos)
{
    return pos < lx->len ? (unsigned char)lx->buf[pos] : -1;
}

static void newline(ptoc_lexer *lx, size_t after)
{
    lx->line++;
    lx->line_start = after;
}

static ptoc_token make(const ptoc_lexer *lx, ptoc_tok_kind k, size_t start)
{
    ptoc_token t;
    t.kind = k;
    t.start = start;
    t.len = lx->pos - start;
    t.line = lx->line;
    t.col = (uint32_t)(start - lx->line_start + 1);
    t.error = NULL;
    return t;
}

static ptoc_token error_at(ptoc_lexer *lx, size_t start, const char *msg)
{
    ptoc_token t = make(lx, TOK_ERROR, start);
    t.error = msg;
    return t;
}

/* Skips blanks, newlines, comments and `{-# ... #-}`. Returns an error message
 * for an unterminated resource block. */
static const char *skip_trivia(ptoc_lexer *lx)
{
    for (;;) {
        int c = peek_at(lx, lx->pos);
        if (c == ' ' || c == '\t' || c == '\r') {
            lx->pos++;
        } else if (c == '\n') {
            lx->pos++;
            newline(lx, lx->pos);
        } else if (c == '/' && peek_at(lx, lx->pos + 1) == '/') {
            while (lx->pos < lx->len && lx->buf[lx->pos] != '\n')
                lx->pos++;
        } else if (c == '{' && peek_at(lx, lx->pos + 1) == '-' && peek_at(lx, lx->pos + 2) == '#') {
            lx->pos += 3;
            for (;;) {
                if (lx->pos >= lx->len)
                    return "expected '#-}' to end the resource block";
                if (lx->buf[lx->pos] == '\n') {
                    newline(lx, lx->pos + 1);
                } else if (lx->buf[lx->pos] == '#' && peek_at(lx, lx->pos + 1) == '-' &&
                           peek_at(lx, lx->pos + 2) == '}') {
                    lx->pos += 3;
                    break;
                }
                lx->pos++;
            }
        } else {
            return NULL;
        }
    }
}

/* A string body after the opening quote; escapes are checked here and decoded
 * by the parser. */
static ptoc_token lex_string(ptoc_lexer *lx, size_t start, ptoc_tok_kind kind)
{
    for (;;) {
        int c = peek_at(lx, lx->pos);
        if (c < 0 || c == '\n')
            return error_at(lx, start, "expected '\"' in string literal");
        lx->pos++;
        if (c == '"')
            return make(lx, kind, start);
        if (c != '\\')
            continue;
        c = peek_at(lx, lx->pos);
        if (c == '"' || c == '\\' || c == 'n' || c == 't') {
            lx->pos++;
        } else if (is_hex(c) && is_hex(peek_at(lx, lx->pos + 1))) {
            lx->pos += 2;
        } else {
            return error_at(lx, lx->pos - 1, "unknown escape in string literal");
        }
    }
}

static ptoc_token lex_number(ptoc_lexer *lx, size_t start)
{
    if (lx->buf[start] == '0' && peek_at(lx, start + 1) == 'x' && is_hex(peek_at(lx, start + 2))) {
        lx->pos = start + 2;
        while (is_hex(peek_at(lx, lx->pos)))
            lx->pos++;
        return make(lx, TOK_INTEGER, start);
    }
    while (is_digit(peek_at(lx, lx->pos)))
        lx->pos++;
    if (peek_at(lx, lx->pos) != '.')
        return make(lx, TOK_INTEGER, start);
    lx->pos++;
    while (is_digit(peek_at(lx, lx->pos)))
        lx->pos++;
    int e = peek_at(lx, lx->pos);
    if (e == 'e' || e == 'E') {
        size_t d = lx->pos + 1;
        if (peek_at(lx, d) == '+' || peek_at(lx, d) == '-')
            d++;
        if (is_digit(peek_at(lx, d))) {
            lx->pos = d;
            while (is_digit(peek_at(lx, lx->pos)))
                lx->pos++;
        }
    }
    return make(lx, TOK_FLOAT, start);
}

/* `%x`, `^bb0`, `#a.b`, `!a.b`, `@sym` or `@"sym"`. */
static ptoc_token lex_prefixed(ptoc_lexer *lx, size_t start, ptoc_tok_kind kind)
{
    if (kind == TOK_AT_ID && peek_at(lx, lx->pos) == '"') {
        lx->pos++;
        return lex_string(lx, start, TOK_AT_ID);
    }
    int c = peek_at(lx, lx->pos);
    if (is_digit(c)) {
        while (is_digit(peek_at(lx, lx->pos)))
            lx->pos++;
    } else if (is_alpha(c) || c == '_' || c == '$' || c == '.' || c == '-') {
        while (is_suffix_char(peek_at(lx, lx->pos)))
            lx->pos++;
    } else {
        return error_at(lx, start, "unexpected character");
    }
    return make(lx, kind, start);
}

/* One-character punctuation, indexed by the character. */
static ptoc_tok_kind punct_kind(int c)
{
    switch (c) {
    case '(': return TOK_LPAREN;
    case ')': return TOK_RPAREN;
    case '[': return TOK_LSQUARE;
    case ']': return TOK_RSQUARE;
    case '{': return TOK_LBRACE;
    case '}': return TOK_RBRACE;
    case '<': return TOK_LESS;
    case '>': return TOK_GREATER;
    case ',': return TOK_COMMA;
    case '=': return TOK_EQUAL;
    case '?': return TOK_QUESTION;
    case '*': return TOK_STAR;
    case '+': return TOK_PLUS;
    case '|': return TOK_PIPE;
    default: return TOK_EOF;
    }
}

ptoc_token ptoc_lex_next(ptoc_lexer *lx)
{
    const char *trivia_error = skip_trivia(lx);
    size_t start = lx->pos;
    if (trivia_error)
        return error_at(lx, start, trivia_error);
    int c = peek_at(lx, start);
    if (c < 0)
        return make(lx, TOK_EOF, start);
    lx->pos++;
    if (is_alpha(c) || c == '_') {
        while (ptoc_lex_is_id_char(peek_at(lx, lx->pos)))
            lx->pos++;
        return make(lx, TOK_BARE_ID, start);
    }
    if (is_digit(c))
        return lex_number(lx, start);
    switch (c) {
    case '"': return lex_string(lx, start, TOK_STRING);
    case '%': return lex_prefixed(lx, start, TOK_PERCENT_ID);
    case '^': return lex_prefixed(lx, start, TOK_CARET_ID);
    case '#': return lex_prefixed(lx, start, TOK_HASH_ID);
    case '!': return lex_prefixed(lx, start, TOK_BANG_ID);
    case '@': return lex_prefixed(lx, start, TOK_AT_ID);
    case ':':
        if (peek_at(lx, lx->pos) == ':') {
            lx->pos++;
            return make(lx, TOK_COLON_COLON, start);
        }
        return make(lx, TOK_COLON, start);
    case '-':
        if (peek_at(lx, lx->pos) == '>') {
            lx->pos++;
            return make(lx, TOK_ARROW, start);
        }
        return make(lx, TOK_MINUS, start);
    case '.':
        if (peek_at(lx, lx->pos) == '.' && peek_at(lx, lx->pos + 1) == '.') {
            lx->pos += 2;
            return make(lx, TOK_ELLIPSIS, start);
        }
        return error_at(lx, start, "unexpected character");
    default: break;
    }
    ptoc_tok_kind k = punct_kind(c);
    if (k != TOK_EOF)
        return make(lx, k, start);
    return error_at(lx, start, "unexpected character");
}

/* Skips a string starting at the quote at lx->pos; false if unterminated. */
static bool skip_raw_string(ptoc_lexer *lx)
{
    lx->pos++;
    while (lx->pos < lx->len) {
        char c = lx->buf[lx->pos++];
        if (c == '"')
            return true;
        if (c == '\\' && lx->pos < lx->len)
            lx->pos++;
        else if (c == '\n')
            return false;
    }
    return false;
}

static char closer_of(char open)
{
    switch (open) {
    case '<': return '>';
    case '(': return ')';
    case '[': return ']';
    default: return '}';
    }
}

const char *ptoc_lex_balanced(ptoc_lexer *lx, size_t pos, uint32_t max_depth, size_t *end)
{
    /* The expected closers; a fixed stack bounded by max_depth (at most 1024 here). */
    char stack[1024];
    uint32_t limit = max_depth < sizeof stack ? max_depth : (uint32_t)sizeof stack;
    uint32_t depth = 0;
    lx->pos = pos;
    do {
        if (lx->pos >= lx->len) {
            *end = lx->len;
            return "unbalanced '<' in dialect type or attribute body";
        }
        char c = lx->buf[lx->pos];
        if (c == '"') {
            if (!skip_raw_string(lx)) {
                *end = lx->pos;
                return "expected '\"' in string literal";
            }
            continue;
        }
        if (c == '\n')
            newline(lx, lx->pos + 1);
        if (c == '-' && peek_at(lx, lx->pos + 1) == '>') {
            lx->pos += 2;
            continue;
        }
        if (c == '<' || c == '(' || c == '[' || c == '{') {
            if (depth >= limit) {
                *end = lx->pos;
                return "nesting too deep";
            }
            stack[depth++] = closer_of(c);
        } else if (c == '>' && stack[depth - 1] != '>') {
            /* A comparison such as `>=` inside parentheses (affine sets). */
        } else if (c == '>' || c == ')' || c == ']' || c == '}') {
            if (stack[depth - 1] != c) {
                *end = lx->pos;
                return "unbalanced brackets in dialect type or attribute body";
            }
            depth--;
        } else if (c == '\0') {
            *end = lx->pos;
            return "unexpected character";
        }
        lx->pos++;
    } while (depth > 0);
    *end = lx->pos;
    return NULL;
}
