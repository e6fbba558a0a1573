/* tool_util.h: what ptoc-opt and ptoc share: a table-driven command-line parser,
 * reading an input file or stdin, and atomic output files.
 *
 * Also the input languages (MLIR text, PTO-AS) and the parse options for them.
 *
 * Conventions of both tools: every flag may be written with one or two dashes;
 * a flag with a value takes it as `--flag=value` or `--flag value`; `--` ends the
 * flags; exit status 0 on success, 1 on an error diagnostic, 2 on a bad command
 * line (after a one-line message on stderr).
 */
#ifndef PTOC_TOOLS_TOOL_UTIL_H
#define PTOC_TOOLS_TOOL_UTIL_H

#include "ptoc/pass.h"
#include "ptoc/syntax.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { PTOC_TOOL_EXIT_OK = 0, PTOC_TOOL_EXIT_ERROR = 1, PTOC_TOOL_EXIT_USAGE = 2 };

typedef enum ptoc_tool_arg {
    PTOC_TOOL_NO_VALUE,        /* --flag */
    PTOC_TOOL_VALUE,           /* --flag=V or --flag V */
    PTOC_TOOL_OPTIONAL_VALUE,  /* --flag or --flag=V */
} ptoc_tool_arg;

/* One row per flag. `apply` gets the tool's option struct and the value (NULL
 * when none was given); it returns false after printing why a value is bad. */
typedef struct ptoc_tool_flag {
    const char *name;          /* without dashes: "split-input-file", "o" */
    ptoc_tool_arg arg;
    const char *metavar;       /* "FILE" in the help text */
    bool (*apply)(void *opts, const char *value);
    const char *help;          /* NULL: an alias left out of --help */
} ptoc_tool_flag;

typedef struct ptoc_tool_cli {
    const char *prog;          /* "ptoc-opt" */
    const char *usage;         /* "[options] FILE|-" */
    const char *overview;      /* one paragraph for --help */
    const ptoc_tool_flag *flags;
    size_t nflags;
    /* A non-flag argument; false after printing why it is not accepted. */
    bool (*positional)(void *opts, const char *arg);
    /* Optional: a flag no row names (e.g. a pass name); false if not accepted. */
    bool (*fallback)(void *opts, const char *name);
} ptoc_tool_cli;

/* Parses argv[1..argc); on a bad command line prints `prog: error: ...` and
 * returns false. */
bool ptoc_tool_parse_args(const ptoc_tool_cli *cli, int argc, char **argv, void *opts);
void ptoc_tool_print_help(const ptoc_tool_cli *cli, FILE *out);
/* Prints `prog: error: message` to stderr. */
void ptoc_tool_error(const char *prog, const char *fmt, ...);

/* Reads a whole file ("-" is stdin) into a malloc'ed buffer, with a NUL after the
 * `*len` bytes. Returns NULL after printing an error. */
char *ptoc_tool_read_input(const char *prog, const char *path, size_t *len);
/* Writes `len` bytes to `path` ("-" is stdout) through a temporary file in the
 * same directory and a rename, so a failure never leaves a partial file. */
bool ptoc_tool_write_output(const char *prog, const char *path, const char *data, size_t len);

/* Runs fn(arg) with the process's stderr (file descriptor 2, where LLVM writes
 * its warnings) sent to a temporary file, and returns what was written there
 * (malloc'd; "" when nothing). When stderr cannot be redirected, fn runs with it
 * as it is and the result is NULL. */
char *ptoc_tool_capture_stderr(void (*fn)(void *arg), void *arg);
/* The languages both tools read: MLIR's textual form (.pto, .mlir and every
 * other name) and PTO-AS, the ISA's assembly spelling (docs/syntax.md), chosen
 * by the extension .ptoas or by `-x pto-as`. */
typedef enum ptoc_tool_lang { PTOC_TOOL_LANG_BY_NAME, PTOC_TOOL_LANG_MLIR, PTOC_TOOL_LANG_PTO_AS } ptoc_tool_lang;
/* The `-x` value: "mlir" or "pto-as"; false if it is neither. */
bool ptoc_tool_lang_from_name(const char *name, ptoc_tool_lang *out);
#define PTOC_TOOL_LANG_LIST "mlir or pto-as"
#define PTOC_TOOL_PTO_AS_EXT ".ptoas"
/* How to parse input `path` ("-" is stdin) read as `lang` (BY_NAME: PTO-AS for
 * a .ptoas name, else MLIR), its first line being `first_line`. */
ptoc_parse_options ptoc_tool_parse_options(const char *path, ptoc_tool_lang lang, uint32_t first_line);

/* The architectures --pto-arch accepts (ptoc_pto_arch_from_name:
 * a2, a3, a2a3, a5 or cpu, in any case). */
bool ptoc_tool_arch_valid(const char *arch);

/* ---------------------------------------------------------------- shared flags */

/* What both tools take for the dialects and the pass manager. Each tool's option
 * struct starts with one, so the rows of PTOC_TOOL_COMMON_FLAGS apply to it. */
typedef struct ptoc_tool_common {
    const char *prog;          /* for messages: "ptoc" */
    const char *arch;          /* --pto-arch: a2|a3|a2a3|a5|cpu, NULL if not given */
    const char *level;         /* --pto-level: level1|level2|level3, NULL: level2 */
    uint64_t ub_size;          /* -ub-size in bytes, 0 when not given */
    const char *print_before;  /* --print-ir-before: a pass name, "all" or NULL */
    const char *print_after;
    bool timing;               /* --pass-timing */
    bool print_after_failure;  /* --mlir-print-ir-after-failure */
} ptoc_tool_common;

bool ptoc_tool_set_arch(void *o, const char *value);
bool ptoc_tool_set_level(void *o, const char *value);
bool ptoc_tool_set_ub_size(void *o, const char *value);
bool ptoc_tool_set_print_before(void *o, const char *value);
bool ptoc_tool_set_print_after(void *o, const char *value);
bool ptoc_tool_set_print_before_all(void *o, const char *value);
bool ptoc_tool_set_print_after_all(void *o, const char *value);
bool ptoc_tool_set_timing(void *o, const char *value);
bool ptoc_tool_set_print_after_failure(void *o, const char *value);

#define PTOC_TOOL_COMMON_FLAGS                                                                         \
    {"pto-arch", PTOC_TOOL_VALUE, "ARCH", ptoc_tool_set_arch, /* help lists the arch table's names */      \
     "Arch whose rules apply (verifier, memory, sync); wins over the module's pto.target_arch "        \
     "(default: that attribute, else cpu)"},                                                           \
    {"pto-level", PTOC_TOOL_VALUE, "level1|level2|level3", ptoc_tool_set_level,                        \
     "level1/level2 (default): plan memory for buffers without addresses; "                            \
     "level3: every on-chip buffer needs an address"},                                                 \
    {"ub-size", PTOC_TOOL_VALUE, "BYTES", ptoc_tool_set_ub_size,                                       \
     "UB (vec) capacity for planning and simulation, e.g. 4M (default: the arch's)"},                 \
    {"print-ir-before", PTOC_TOOL_VALUE, "PASS|all", ptoc_tool_set_print_before,                       \
     "Print the IR to stderr before the named pass (or every pass)"},                                  \
    {"print-ir-after", PTOC_TOOL_VALUE, "PASS|all", ptoc_tool_set_print_after,                         \
     "Print the IR to stderr after the named pass (or every pass)"},                                   \
    {"print-ir-before-all", PTOC_TOOL_NO_VALUE, NULL, ptoc_tool_set_print_before_all,                  \
     "Same as --print-ir-before=all"},                                                                 \
    {"print-ir-after-all", PTOC_TOOL_NO_VALUE, NULL, ptoc_tool_set_print_after_all,                    \
     "Same as --print-ir-after=all"},                                                                  \
    {"mlir-print-ir-after-all", PTOC_TOOL_NO_VALUE, NULL, ptoc_tool_set_print_after_all, NULL},       \
    {"mlir-print-ir-after-failure", PTOC_TOOL_NO_VALUE, NULL, ptoc_tool_set_print_after_failure,      \
     "Print the IR to stderr after a pass that fails (generic form if it does not verify)"},          \
    {"pass-timing", PTOC_TOOL_NO_VALUE, NULL, ptoc_tool_set_timing,                                    \
     "Report the wall time of each pass on stderr"},                                                   \
    {"mlir-timing", PTOC_TOOL_NO_VALUE, NULL, ptoc_tool_set_timing, NULL}

/* Gives the dialects what the shared flags say (context options "pto-arch",
 * "pto-level", "pto-ub-size"). */
void ptoc_tool_apply_common(ptoc_context *ctx, const ptoc_tool_common *c);
/* A pass-manager configuration with the shared flags' dumps and timing (stderr). */
ptoc_pm_config ptoc_tool_pm_config(const ptoc_tool_common *c, bool verify_each);

#endif
