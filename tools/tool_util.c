/* tool_util.c: the command-line parser, input reading, atomic output and the
 * flags shared by ptoc-opt and ptoc. Tools may use POSIX (mkstemp, rename, unlink); the library
 * may not, so this lives here and not in ir/.
 */
#define _POSIX_C_SOURCE 200809L

#include "tools/tool_util.h"

#include "ptoc/pto.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ptoc_tool_error(const char *prog, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: error: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ---------------------------------------------------------------- flags */

static const ptoc_tool_flag *find_flag(const ptoc_tool_cli *cli, const char *name, size_t len)
{
    for (size_t i = 0; i < cli->nflags; i++)
        if (strlen(cli->flags[i].name) == len && strncmp(cli->flags[i].name, name, len) == 0)
            return &cli->flags[i];
    return NULL;
}

/* Handles argv[*i], a flag; may consume argv[*i + 1] as its value. */
static bool parse_flag(const ptoc_tool_cli *cli, int argc, char **argv, int *i, void *opts)
{
    const char *arg = argv[*i];
    const char *name = arg + (arg[1] == '-' ? 2 : 1);
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const char *value = eq ? eq + 1 : NULL;
    const ptoc_tool_flag *flag = find_flag(cli, name, len);
    if (!flag) {
        if (!eq && cli->fallback && cli->fallback(opts, name))
            return true;
        ptoc_tool_error(cli->prog, "unknown option '%s' (see --help)", arg);
        return false;
    }
    if (flag->arg == PTOC_TOOL_NO_VALUE && value) {
        ptoc_tool_error(cli->prog, "option '%.*s' takes no value", (int)(eq - arg), arg);
        return false;
    }
    if (flag->arg == PTOC_TOOL_VALUE && !value) {
        if (*i + 1 >= argc) {
            ptoc_tool_error(cli->prog, "option '%s' needs a value", arg);
            return false;
        }
        value = argv[++*i];
    }
    return flag->apply(opts, value);
}

bool ptoc_tool_parse_args(const ptoc_tool_cli *cli, int argc, char **argv, void *opts)
{
    bool flags_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!flags_done && strcmp(arg, "--") == 0) {
            flags_done = true;
        } else if (!flags_done && arg[0] == '-' && arg[1] != '\0') {
            if (!parse_flag(cli, argc, argv, &i, opts))
                return false;
        } else if (!cli->positional(opts, arg)) {
            return false;
        }
    }
    return true;
}

void ptoc_tool_print_help(const ptoc_tool_cli *cli, FILE *out)
{
    fprintf(out, "OVERVIEW: %s\n\nUSAGE: %s %s\n\nOPTIONS:\n", cli->overview, cli->prog, cli->usage);
    for (size_t i = 0; i < cli->nflags; i++) {
        const ptoc_tool_flag *f = &cli->flags[i];
        if (!f->help)
            continue;
        char spelling[80], archs[64];
        const char *metavar = f->metavar;
        if (f->apply == ptoc_tool_set_arch) {   /* the arch table's names, not a copy of them */
            ptoc_pto_arch_names_joined(archs, sizeof archs, "|", "|");
            metavar = archs;
        }
        /* Short flags (-o, -O2) read best with one dash, long ones with two. */
        bool is_short = strlen(f->name) <= 2;
        const char *dashes = is_short ? "-" : "--";
        if (f->arg == PTOC_TOOL_NO_VALUE)
            snprintf(spelling, sizeof spelling, "%s%s", dashes, f->name);
        else if (f->arg == PTOC_TOOL_OPTIONAL_VALUE)
            snprintf(spelling, sizeof spelling, "%s%s[=%s]", dashes, f->name, metavar);
        else
            snprintf(spelling, sizeof spelling, "%s%s%s%s", dashes, f->name, is_short ? " " : "=",
                     metavar);
        fprintf(out, "  %-34s %s\n", spelling, f->help);
    }
    fputs("\nFlags take one dash or two; a value follows '=' or comes as the next argument.\n"
          "Exit status: 0 success, 1 an error diagnostic, 2 a bad command line.\n", out);
}

/* ---------------------------------------------------------------- files */

/* The whole stream, NUL-terminated, in a malloc'd buffer; NULL when out of
 * memory. The buffer doubles from 64 KiB by its own rule, not ptoc/varr.h's,
 * whose 32-bit capacity would stop a stream at 4 GiB. */
static char *read_stream(FILE *in, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, in);
        if (n < cap)
            break;
        char *bigger = realloc(buf, 2 * cap + 1);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    if (!buf)
        return NULL;
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *ptoc_tool_read_input(const char *prog, const char *path, size_t *len)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *in = is_stdin ? stdin : fopen(path, "rb");
    if (!in) {
        ptoc_tool_error(prog, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    char *text = read_stream(in, len);
    bool failed = ferror(in) || !text;
    if (!is_stdin)
        fclose(in);
    if (failed) {
        ptoc_tool_error(prog, "cannot read '%s'", path);
        free(text);
        return NULL;
    }
    return text;
}

static bool write_all(FILE *out, const char *data, size_t len)
{
    return fwrite(data, 1, len, out) == len && fflush(out) == 0;
}

/* A device or pipe (/dev/null, /dev/stdout) is written in place: renaming a
 * temporary over it would replace the device node. */
static bool write_special(const char *prog, const char *path, const char *data, size_t len)
{
    FILE *out = fopen(path, "wb");
    bool ok = out && write_all(out, data, len);
    if (out)
        ok = fclose(out) == 0 && ok;
    if (!ok)
        ptoc_tool_error(prog, "cannot write '%s': %s", path, strerror(errno));
    return ok;
}

bool ptoc_tool_write_output(const char *prog, const char *path, const char *data, size_t len)
{
    if (strcmp(path, "-") == 0) {
        if (write_all(stdout, data, len))
            return true;
        ptoc_tool_error(prog, "cannot write to stdout");
        return false;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return write_special(prog, path, data, len);
    size_t tmp_len = strlen(path) + sizeof ".tmp.XXXXXX";
    char *tmp = malloc(tmp_len);
    if (!tmp) {
        ptoc_tool_error(prog, "out of memory");
        return false;
    }
    snprintf(tmp, tmp_len, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd >= 0) {
        mode_t mask = umask(0);            /* mkstemp makes 0600; give the usual mode */
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    bool ok = out && write_all(out, data, len);
    if (out)
        ok = fclose(out) == 0 && ok;
    else if (fd >= 0)
        close(fd);
    if (ok)
        ok = rename(tmp, path) == 0;
    if (!ok) {
        ptoc_tool_error(prog, "cannot write '%s': %s", path, strerror(errno));
        if (fd >= 0)
            unlink(tmp);
    }
    free(tmp);
    return ok;
}

char *ptoc_tool_capture_stderr(void (*fn)(void *arg), void *arg)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = tmp ? dup(STDERR_FILENO) : -1;
    if (saved < 0 || dup2(fileno(tmp), STDERR_FILENO) < 0) {
        if (saved >= 0)
            close(saved);
        if (tmp)
            fclose(tmp);
        fn(arg);
        return NULL;
    }
    fn(arg);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(tmp);
    size_t len = 0;
    char *text = read_stream(tmp, &len);
    fclose(tmp);
    return text;
}

bool ptoc_tool_arch_valid(const char *arch)
{
    return ptoc_pto_arch_from_name(arch) != PTOC_PTO_ARCH_INVALID;
}

/* ---------------------------------------------------------------- shared flags */

bool ptoc_tool_set_arch(void *o, const char *value)
{
    ptoc_tool_common *c = o;
    if (!ptoc_tool_arch_valid(value)) {
        char names[128];
        ptoc_pto_arch_names(names, sizeof names);
        ptoc_tool_error(c->prog, "invalid --pto-arch value '%s' (expected %s)", value, names);
        return false;
    }
    c->arch = value;
    return true;
}

bool ptoc_tool_set_level(void *o, const char *value)
{
    ptoc_tool_common *c = o;
    if (ptoc_pto_level_from_name(value) == PTOC_PTO_LEVEL_INVALID) {
        ptoc_tool_error(c->prog, "invalid --pto-level value '%s' (expected level1, level2 or level3)", value);
        return false;
    }
    c->level = value;
    return true;
}

/* A byte count with an optional K or M (KiB, MiB) suffix, at most 1 TiB. */
static bool parse_bytes(const char *text, uint64_t *out)
{
    char *end;
    if (!isdigit((unsigned char)text[0]))
        return false;
    unsigned long long v = strtoull(text, &end, 10);
    uint64_t scale = *end == 'k' || *end == 'K' ? 1u << 10 : *end == 'm' || *end == 'M' ? 1u << 20 : 1;
    if (scale != 1)
        end++;
    if (*end || v == 0 || v > (UINT64_C(1) << 40) / scale)
        return false;
    *out = v * scale;
    return true;
}

bool ptoc_tool_set_ub_size(void *o, const char *value)
{
    ptoc_tool_common *c = o;
    if (!parse_bytes(value, &c->ub_size)) {
        ptoc_tool_error(c->prog, "invalid -ub-size value '%s' (expected a byte count such as 262144, 256K or 4M)",
                        value);
        return false;
    }
    return true;
}

bool ptoc_tool_set_print_before(void *o, const char *value)
{
    ((ptoc_tool_common *)o)->print_before = value;
    return true;
}

bool ptoc_tool_set_print_after(void *o, const char *value)
{
    ((ptoc_tool_common *)o)->print_after = value;
    return true;
}

bool ptoc_tool_set_print_before_all(void *o, const char *value)
{
    (void)value;
    return ptoc_tool_set_print_before(o, "all");
}

bool ptoc_tool_set_print_after_all(void *o, const char *value)
{
    (void)value;
    return ptoc_tool_set_print_after(o, "all");
}

bool ptoc_tool_set_timing(void *o, const char *value)
{
    (void)value;
    ((ptoc_tool_common *)o)->timing = true;
    return true;
}

bool ptoc_tool_set_print_after_failure(void *o, const char *value)
{
    (void)value;
    ((ptoc_tool_common *)o)->print_after_failure = true;
    return true;
}

void ptoc_tool_apply_common(ptoc_context *ctx, const ptoc_tool_common *c)
{
    if (c->arch)
        ptoc_context_set_option(ctx, "pto-arch", c->arch);
    if (c->level)
        ptoc_context_set_option(ctx, "pto-level", c->level);
    if (c->ub_size) {
        char bytes[32];
        snprintf(bytes, sizeof bytes, "%" PRIu64, c->ub_size);
        ptoc_context_set_option(ctx, "pto-ub-size", bytes);
    }
}

ptoc_pm_config ptoc_tool_pm_config(const ptoc_tool_common *c, bool verify_each)
{
    ptoc_pm_config config = {
        .verify_each = verify_each,
        .print_before = c->print_before,
        .print_after = c->print_after,
        .print_after_failure = c->print_after_failure,
        .dump_out = stderr,
        .timing_out = c->timing ? stderr : NULL,
    };
    return config;
}

/* ---------------------------------------------------------------- input languages */

bool ptoc_tool_lang_from_name(const char *name, ptoc_tool_lang *out)
{
    if (strcmp(name, "mlir") == 0)
        *out = PTOC_TOOL_LANG_MLIR;
    else if (strcmp(name, "pto-as") == 0)
        *out = PTOC_TOOL_LANG_PTO_AS;
    else
        return false;
    return true;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

ptoc_parse_options ptoc_tool_parse_options(const char *path, ptoc_tool_lang lang, uint32_t first_line)
{
    bool pto_as = lang == PTOC_TOOL_LANG_PTO_AS ||
                  (lang == PTOC_TOOL_LANG_BY_NAME && path && has_suffix(path, PTOC_TOOL_PTO_AS_EXT));
    ptoc_parse_options o = {
        .first_line = first_line,
        .asm_dialect = "pto",
        .assembly = pto_as,
        .asm_hint = "PTO-AS input (a " PTOC_TOOL_PTO_AS_EXT " file, or -x pto-as)",
    };
    return o;
}
